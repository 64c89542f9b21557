"""A small class folder whose copying did not keep its words: an English passage
paraphrased in another essay, and another English passage translated into Chinese, each
inside text of the writer's own that no other file shares (so no run of words is shared);
and one pair that shares a paragraph word for word and paraphrases another.
Written for these tests."""

from __future__ import annotations

from pathlib import Path

BEES = (
    "Honeybees pollinate roughly a third of the crops that people eat, from almonds to "
    "apples. Since 2006, beekeepers in North America have reported losing up to forty "
    "percent of their colonies each winter. Researchers blame a combination of parasitic "
    "mites, viral infections and pesticides that weaken the insects' ability to find their "
    "way home. Farmers now rent hives from travelling beekeepers to make sure their "
    "orchards are pollinated in spring. If the losses continue, the price of many fruits "
    "and vegetables is likely to rise sharply."
)

BEES_PARAPHRASED = (
    "About one third of the food crops we consume, apples and almonds among them, depend "
    "on honeybees for pollination. Every winter since 2006, North American beekeepers have "
    "seen as many as forty percent of their colonies die. Scientists attribute this to "
    "parasitic mites together with viruses and pesticides, which damage the bees' capacity "
    "to navigate back to the hive. Orchard owners have started hiring hives from "
    "migratory beekeepers so that their trees get pollinated each spring. Should these "
    "losses go on, many fruits and vegetables will probably become much more expensive."
)

CANAL = (
    "The Grand Canal of China is the longest artificial waterway in the world. Its "
    "oldest sections were dug more than two thousand five hundred years ago. For "
    "centuries, boats carried rice and grain from the fertile south to the capital in the "
    "north. The canal also helped merchants, soldiers and officials travel across the "
    "empire. In 2014 it was added to the list of World Heritage Sites."
)

CANAL_TRANSLATED = (
    "中国的大运河是世界上最长的人工水道。它最古老的部分是在两千五百多年前开凿的。"
    "几个世纪以来，船只把大米和粮食从富饶的南方运到北方的首都。"
    "运河也帮助商人、士兵和官员在帝国各地旅行。2014年，它被列入世界遗产名录。"
)

ANA = (
    "My grandmother keeps a small garden behind her house in the village.",
    "Every Sunday we walk there together and she tells me the names of the flowers she "
    "planted when she was young. She says a garden teaches patience better than any book.",
    BEES,
    "Last summer I helped her build a wooden bench beside the pond, and we painted it "
    "green so that it would match the leaves of the old pear tree.",
)

BEN = (
    "Farming in the modern world",
    "When I visited my uncle's farm during the holidays, I was surprised by how much "
    "machinery he uses to harvest his wheat. He starts work before sunrise and rarely "
    "finishes before dark, even in winter.",
    BEES_PARAPHRASED,
    "My uncle believes that young people should spend at least one season working on a "
    "farm, because it shows them where their breakfast really comes from.",
)

CHEN = (
    "我的暑假旅行",
    "今年暑假，我和父母一起去了杭州。我们在西湖边骑自行车，还品尝了当地有名的龙井茶。"
    "晚上的湖面非常安静，远处的灯光倒映在水里，像一幅画。",
    CANAL_TRANSLATED,
    "回到家以后，我把旅行的照片整理成一本相册，送给了奶奶。她说明年也想和我们一起去。",
)

DAN = (
    "Rivers and cities",
    "Many of the great cities of history grew up beside rivers, which gave them water, "
    "food and an easy road for trade. Our teacher asked us to choose one example and "
    "describe it in our own words.",
    CANAL,
    "I chose this example because my father once worked as an engineer on a bridge near "
    "Hangzhou, and he still talks about the barges he watched from his office window.",
)

CHESS = (
    "Chess began in India around the sixth century as a game called chaturanga. Traders "
    "and travellers carried it to Persia, where the pieces received new names. Arab "
    "scholars later wrote the first books about strategy and famous games. The game "
    "reached Europe through Spain and Italy about a thousand years ago. Its modern rules, "
    "with a powerful queen, were settled at the end of the fifteenth century."
)

CHESS_PARAPHRASED = (
    "The game of chess started in India near the sixth century, where people called it "
    "chaturanga. Merchants and other travellers took it to Persia, and there the pieces "
    "were given different names. Later, Arab scholars produced the earliest books on "
    "strategy and on well known games. Roughly a millennium ago it arrived in Europe by "
    "way of Spain and Italy. The rules we use today, with a strong queen, were fixed in "
    "the late fifteenth century."
)

# copied word for word by fay.txt, which paraphrases CHESS beside it
CHESS_CLUB = (
    "Every Thursday after school our chess club meets in the library, and the older "
    "students teach the beginners how to open a game, how to protect the king and how to "
    "finish an ending with only a few pieces left on the board."
)

EVE = (
    "Why I like chess",
    "I learned to play chess when I was seven years old, from a neighbour who had once "
    "played in national tournaments. At first I lost every game, but slowly I began to "
    "understand why some moves are stronger than others.",
    CHESS,
    "Chess taught me to think several steps ahead and to accept defeat calmly. Today I "
    "play online with friends from three different countries, and we often discuss our "
    "games afterwards over video calls.",
    CHESS_CLUB,
)

FAY = (
    "A game for everyone",
    "My sister thinks board games are boring, but she changed her mind after watching a "
    "film about a young champion from a poor neighbourhood of Kampala.",
    CHESS_CLUB,
    "Next year I hope to play in the regional tournament, although my brother says I "
    "still move my bishops far too early.",
    CHESS_PARAPHRASED,
)

FILES = {
    "ana.txt": ANA,
    "ben.txt": BEN,
    "chen.txt": CHEN,
    "dan.txt": DAN,
    "eve.txt": EVE,
    "fay.txt": FAY,
}


def write_meaning_corpus(root: Path) -> dict[str, Path]:
    """Write the six essays under `root` (one paragraph per blank-line-separated block)."""
    root.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name, paragraphs in FILES.items():
        path = root / name
        path.write_text("\n\n".join(paragraphs) + "\n", encoding="utf-8")
        paths[name] = path
    return paths
