"""Passages for the meaning tests: a source, its paraphrase and its Chinese translation,
and unrelated text on the same topic, all written for these tests."""

SOURCE = (
    "Glaciers in the Alps have lost more than half of their volume since the middle of "
    "the nineteenth century. Scientists measure the retreat every summer by walking the "
    "edge of the ice with satellite receivers. The melting accelerated sharply after 1980, "
    "when average summer temperatures in the mountains rose by almost two degrees. "
    "Villages that depend on meltwater for drinking water and hydroelectric power are "
    "already planning new reservoirs. Without a rapid cut in emissions, most small "
    "glaciers are expected to disappear before the end of this century."
)

PARAPHRASE = (
    "Since the mid nineteenth century, Alpine glaciers have lost over half of their "
    "volume. Every summer, researchers measure how far the ice retreats, walking along its "
    "edge with satellite receivers. After 1980 the melting accelerated dramatically, as "
    "mean summer temperatures in the mountains climbed nearly two degrees. Mountain "
    "villages that rely on meltwater for their drinking water and for hydroelectric power "
    "have begun planning new reservoirs. Unless emissions are cut quickly, most of the "
    "small glaciers will probably vanish before this century ends."
)

TRANSLATION = (
    "自十九世纪中叶以来，阿尔卑斯山的冰川已经失去了一半以上的体积。"
    "科学家每年夏天都会带着卫星接收器沿着冰的边缘行走，测量冰川的退缩。"
    "1980年以后，山区夏季平均气温上升了将近两度，融化急剧加速。"
    "依靠融水获得饮用水和水力发电的村庄已经在规划新的水库。"
    "如果不迅速减少排放，大多数小冰川预计将在本世纪末之前消失。"
)

# the same topic, other sentences: not a copy
SAME_TOPIC = (
    "Climate change is one of the most discussed problems of our time. Many people "
    "believe that governments should act faster, while others worry about the cost of "
    "new technology. In my opinion, every citizen can help by using public transport and "
    "saving electricity at home. Schools should teach children about the environment from "
    "an early age. If we work together, we can protect the planet for future generations "
    "and keep our mountains, rivers and forests healthy."
)

OTHER = (
    "The history of printing begins with wooden blocks carved by hand in ancient China. "
    "Movable type made of clay was invented in the eleventh century, and metal type "
    "followed in Korea. In Europe, Gutenberg combined a press adapted from wine making with "
    "oil based ink and cast letters. Books became cheaper, literacy spread, and new ideas "
    "travelled across the continent within a few decades. Newspapers appeared in the "
    "seventeenth century and changed how people learned about politics and trade."
)

OTHER_CHINESE = (
    "我的家乡是一个安静的小镇，四周都是稻田和竹林。每到春天，农民们就开始插秧，"
    "孩子们在田埂上放风筝。镇上有一条老街，街边的茶馆里总是坐满了聊天的老人。"
    "后来修了高速公路，很多年轻人去城里打工，小镇变得越来越冷清。"
    "每次回家，我都会去老街走一走，喝一杯茶，听听老人们讲过去的故事。"
)
