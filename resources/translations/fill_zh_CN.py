# ruff: noqa: E501  (a translation table reads best one entry per line)
"""Fill the zh_CN .ts file from a source → translation table (kept with the .ts)."""

import sys
import xml.etree.ElementTree as ET

ZH = {
    "Name": "名称", "Folder": "文件夹", "Kind": "类型", "Distance": "距离", "Size": "大小",
    "Title": "标题", "Cluster %1 · %2 files": "第 %1 组 · %2 个文件", "≤ %1": "≤ %1",
    "Previous match": "上一处匹配", "Next match": "下一处匹配", "Aligning…": "正在对齐…",
    "Could not align: {message}": "无法对齐：{message}", "n/a": "不适用",
    "Hamming distance {d} · A in B {ab} · B in A {ba} · {passages}": "汉明距离 {d} · A 在 B 中 {ab} · B 在 A 中 {ba} · {passages}",
    "1 shared passage of {longest} words": "1 段共有段落，{longest} 词",
    "{n} shared passages, longest {longest} words": "{n} 段共有段落，最长 {longest} 词",
    "Aligned sentences: {a} of A, {b} of B": "对齐的句子：占 A 的 {a}，占 B 的 {b}",
    "Rarest shared words (documents using each): {words}": "最罕见的共有词（使用该词的文档数）：{words}",
    "Overlap": "重合度",
    "Containment of A in B: share of A's own text inside passages also in B": "A 在 B 中的包含度：A 自身文本中落在 B 也有的段落里的比例",
    "Containment of B in A: share of B's own text inside passages also in A": "B 在 A 中的包含度：B 自身文本中落在 A 也有的段落里的比例",
    "Overlap: both documents' text inside shared passages, over both texts": "重合度：两篇文档落在共有段落中的文本占两篇全文的比例",
    "Hamming distance: bits in which the two 64-bit fingerprints differ": "汉明距离：两个 64 位指纹不同的位数",
    "File": "文件", "Problem": "问题",
    "Document A": "文档 A", "Folder A": "文件夹 A", "Document B": "文档 B", "Folder B": "文件夹 B",
    "A in B": "A 在 B 中", "B in A": "B 在 A 中",
    "Partial copies (%1)": "部分抄袭（%1）",
    "Folders to scan (drop folders here):": "要扫描的文件夹（可将文件夹拖放到此处）：",
    "Add folder…": "添加文件夹…", "Remove": "移除", "Exclude patterns:": "排除模式：",
    "e.g. *.tmp, drafts/*": "例如 *.tmp, drafts/*",
    "Tick a folder to use it as a reference (e.g. the assignment prompt).":
        "勾选文件夹即作为参考文件夹（例如作业题目）。",
    "Ticked: reference folder, compared with the others but not among itself":
        "已勾选：参考文件夹，与其他文件比较，但其内部文件之间不比较",
    "Add folder": "添加文件夹",
    "original": "原件", "exact": "完全相同", "same text": "文本相同", "near": "近似",
    "partial": "部分抄袭",
    "SimSift — near-duplicate and plagiarism checker": "SimSift — 近似重复与抄袭检测",
    "Scan": "扫描", "Filter by file name, folder or title…": "按文件名、文件夹或标题筛选…",
    "Clusters": "重复组", "Errors (%1)": "错误（%1）", "&File": "文件(&F)", "&Edit": "编辑(&E)",
    "&Language": "语言(&L)", "&Help": "帮助(&H)", "Export CSV…": "导出 CSV…",
    "Export JSON…": "导出 JSON…", "Export HTML report…": "导出 HTML 报告…", "Quit": "退出",
    "Open file": "打开文件", "Reveal in folder": "在文件夹中显示", "Copy path": "复制路径",
    "Mark all but the original": "标记除原件外的全部", "Make original": "设为原件", "Unmark all": "取消全部标记",
    "Not a duplicate": "不是重复", "Move checked to trash…": "将已勾选文件移到回收站…",
    "About SimSift": "关于 SimSift",
    "Remember that the selected pair is not a duplicate (select two files, or one and its original)":
        "记住所选的一对文件不是重复（选择两个文件，或一个文件及其原件）",
    "Add a folder to scan first (drop it on the list).": "请先添加要扫描的文件夹（拖放到列表中）。",
    "Done: %1 documents, %2 unchanged files taken from the catalog.":
        "完成：%1 个文档，其中 %2 个未改动的文件取自缓存目录。",
    "Cancelled. Files read so far are kept; the next scan continues from there.":
        "已取消。已读取的文件会被保留，下次扫描将从此处继续。",
    "Scan failed": "扫描失败",
    "Scanning… clusters appear when the scan finishes.": "正在扫描…扫描完成后将显示重复组。",
    "Drop folders on the list at the left, then press Scan.": "将文件夹拖放到左侧列表，然后点击“扫描”。",
    "%1 clusters with %2 files among %3 documents (k = %4).":
        "%3 个文档中有 %1 个重复组，共 %2 个文件（k = %4）。",
    "Pair marked as not a duplicate.": "已将这对文件标记为不是重复。",
    "Move to trash": "移到回收站", "Move 1 checked file to the trash?": "将 1 个已勾选文件移到回收站？",
    "Move %1 checked files to the trash?": "将 %1 个已勾选文件移到回收站？",
    "Moved 1 file to the trash.": "已将 1 个文件移到回收站。",
    "Moved %1 files to the trash.": "已将 %1 个文件移到回收站。",
    "Some files were not moved": "部分文件未能移动", "Export report into folder": "将报告导出到文件夹",
    "Wrote %1": "已写入 %1", "Export HTML report": "导出 HTML 报告",
    "HTML files (*.html)": "HTML 文件 (*.html)",
    "SimSift finds near-duplicate and copied documents with SimHash fingerprints.":
        "SimSift 使用 SimHash 指纹查找近似重复和抄袭的文档。",
    "Distance k (0 = identical fingerprints)": "距离 k（0 = 指纹完全相同）",
    "Weights": "权重", "Title boost": "标题加权", "Term frequency": "词频方式",
    "Shingle size": "词组长度", "raw count": "原始计数", "logarithmic": "对数", "binary": "二值",
    "Inverse document frequency (idf)": "逆文档频率（idf）",
    "Ignore digits (dates, counters)": "忽略数字（日期、计数器）", "Remove stopwords": "去除停用词",
    "Term": "词语", "Weight": "权重",
    "Weight 0 removes a template word; above 1 boosts a topic word":
        "权重 0 去除模板词；大于 1 则加强主题词",
    "Add term": "添加词语", "Remove term": "删除词语",
    "The side-by-side view is not available in this build.": "此版本没有并排对比视图。",
    "Cancel": "取消", "%1: %2 of %3": "%1：%2 / %3", "%1: %2": "%1：%2",
    "Finding files": "查找文件", "Reading": "读取", "Fingerprinting": "计算指纹",
    "Comparing": "比较", "Common text above": "常见文本阈值", " documents": " 篇文档",
    "Passages found in more documents than this (licences, boilerplate, a shared prompt) are common text and never count as copying":
        "出现在超过此数量文档中的段落（许可证、样板文字、共同的题目）视为常见文本，不计为抄袭",
    "%1: %2%": "%1：%2%", "Matching passages": "匹配段落", "Common text (%1)": "常见文本（%1）",
    "Passages found in many documents (licences, boilerplate, a shared prompt): left out of partial copying":
        "在许多文档中出现的段落（许可证、样板文字、共同的题目）：不计入部分抄袭",
    "Status": "状态", "Not read": "未读取", "Read, with a warning": "已读取，有警告", "Skipped": "已跳过",
    "Problems (%1)": "问题（%1）",
    "Read %1 files · %2 not read · %3 with warnings · %4 skipped.":
        "已读取 %1 个文件 · %2 个未读取 · %3 个有警告 · %4 个已跳过。",
    "Show extracted text…": "显示提取的文本…", "Show extracted text": "显示提取的文本",
    "Extracted text — %1": "提取的文本 — %1",
    "Read as %1 · %2 paragraphs · %3 characters · %4 words": "按 %1 读取 · %2 段 · %3 个字符 · %4 个词",
    "Warning: %1": "警告：%1", "Export failed": "导出失败", "Not remembered": "未能记住", "Pairs sharing passages that Clusters does not already show (beyond k)": "共享段落、且未在重复组中显示的文档对（距离超过 k）", "1 cluster with %2 files among %3 documents (k = %4).": "%3 个文档中有 1 个重复组，共 %2 个文件（k = %4）。", "Garbled, not compared": "乱码，未比较", "Undo move to trash": "撤销移到回收站",
    "Edit ▸ Undo puts them back.": "可用“编辑 ▸ 撤销”放回。", "Put 1 file back from the trash.": "已从回收站放回 1 个文件。",
    "Put %1 files back from the trash.": "已从回收站放回 %1 个文件。", "Some files were not put back": "部分文件未能放回", "… and %1 more": "……以及另外 %1 个",
    "%1 files farther than k from their cluster's original were not marked.":
        "%1 个与本组原件距离超过 k 的文件未被标记。", "Type part of the file name or folder…": "输入文件名或文件夹的一部分…",
    "Document": "文档", "Similarity index": "相似度指数", "Sources": "来源数", "Largest source": "最大来源",
    "Its share": "其占比", "compare side by side": "并排比较", "Documents (%1)": "文档（%1）",
    "Filter by file name or folder…": "按文件名或文件夹筛选…",
    "Working on files: %1 of %2…": "正在处理文件：%1 / %2…", "Undo not a duplicate": "撤销“不是重复”", "Undo": "撤销",
    "Pair marked as not a duplicate. Edit ▸ Undo brings it back.": "已将此对标记为不是重复。可用“编辑 ▸ 撤销”恢复。",
    "The pair is shown again.": "此对已重新显示。", "Could not finish": "未能完成",
    "Verdict": "结论", "Verdict: {verdict} ({date})": "结论：{verdict}（{date}）",
    "copying confirmed": "确认抄袭", "not copying": "不是抄袭", "Verdict…": "结论…",
    "Record your verdict on the selected pair or document: copying confirmed or not copying, with a note (kept across scans, exported with the results)":
        "记录你对所选文档对或文档的结论：确认抄袭或不是抄袭，可附说明（跨扫描保留，随结果导出）",
    "Your verdict on the pair (Edit ▸ Verdict…)": "你对此对文档的结论（编辑 ▸ 结论…）",
    "Verdict not remembered": "结论未能保存", "Copying confirmed": "确认抄袭", "Not copying": "不是抄袭",
    "No verdict": "无结论", "A short note (why), kept with the verdict": "简短说明（原因），与结论一同保存",
    "Archive (previous years)": "存档（往年）", "archive": "存档",
    "Archive: indexed once and kept; the other folders are checked against it, its documents are never compared with each other (right-click to change)":
        "存档：只建一次索引并保留；其他文件夹与之比对，存档内的文档之间从不互相比较（右键可更改）",
    "Re-weighted: %1 documents fingerprinted and compared again, no file read.": "已重新加权：%1 篇文档重新计算指纹并比较，未重新读取文件。",
    "The folder list changed since this scan: press Scan to update. ": "文件夹列表在这次扫描后已更改：请按“扫描”更新。",
    "Reopening the last results…": "正在重新打开上次的结果…",
    "SimSift user guide": "SimSift 使用指南", "User guide": "使用指南",
    "Hamming distance: in how many of the 64 bits two documents' fingerprints may differ and still be near duplicates. 0: the same words; 8 (default): light edits and re-posts; above 10 unrelated texts on one topic start to pair.":
        "汉明距离：两篇文档的 64 位指纹最多可有多少位不同仍算近似重复。0：用词相同；8（默认）：轻度改写与转载；超过 10 时，同一主题的不同文章开始配对。",
    "How much more a word of the title counts than a word of the body (1: the same)": "标题中的词比正文中的词重要多少（1：相同）",
    "How a word repeated in a document counts: each time (raw count), less and less (logarithmic), or once (binary)":
        "文档中重复出现的词如何计数：每次都计（原始计数）、递减（对数）或只计一次（二值）",
    "Words per feature: 1 compares vocabularies; 2 or more also word order (stricter; reordered copies then differ more)":
        "每个特征包含的词数：1 只比较用词；2 或以上也比较词序（更严格；调换顺序的抄袭差别会更大）",
    "Weigh words by how rare they are across the scanned documents: common words count less (every fingerprint then depends on the whole folder)":
        "按词在所扫描文档中的罕见程度加权：常见词权重更低（此时每个指纹都取决于整个文件夹）",
    "Leave numbers out of the fingerprints, so dates, counters and page numbers do not make copies look different":
        "指纹中不计数字，使日期、计数器和页码不会让抄袭显得不同",
    "Leave out words like 'the', 'and', '的', '了' that every text uses": "不计“the”“and”“的”“了”这类每篇文本都用的词",
    "&View": "视图(&V)", "Document {n}": "文档 {n}", "Anonymize names": "匿名显示名称",
    "file too large (%1 MB)": "文件过大（%1 MB）", "empty file": "空文件",
    "cannot read file (%1)": "无法读取文件（%1）", "cannot open file (%1)": "无法打开文件（%1）",
    "cannot open folder (%1)": "无法打开文件夹（%1）",
    "not a valid DOCX (corrupt or renamed file)": "不是有效的 DOCX（已损坏或被改名）",
    "not a valid PDF (corrupt or renamed file)": "不是有效的 PDF（已损坏或被改名）",
    "not a valid RTF document (corrupt or renamed file)": "不是有效的 RTF 文档（已损坏或被改名）",
    "not a valid ODT (corrupt or renamed file)": "不是有效的 ODT（已损坏或被改名）",
    "ODT unpacks to %1 MB (possible zip bomb)": "ODT 解压后达 %1 MB（可能是压缩炸弹）",
    "not a valid RTF document (%1)": "不是有效的 RTF 文档（%1）",
    "not a valid PDF (corrupt or truncated)": "不是有效的 PDF（已损坏或不完整）",
    "unsupported file type (%1)": "不支持的文件类型（%1）", "password protected document": "文档有密码保护",
    "password protected PDF": "PDF 有密码保护", "old binary Office file (not a Word document)": "旧版二进制 Office 文件（不是 Word 文档）",
    "no text": "没有文本", "no words found in the text": "文本中没有找到词语",
    "document is nested too deeply to read": "文档嵌套过深，无法读取",
    "took longer than %1 s to read; skipped": "读取超过 %1 秒，已跳过", "out of memory while reading this file": "读取此文件时内存不足",
    "DOCX unpacks to %1 MB (possible zip bomb)": "DOCX 解压后达 %1 MB（可能是压缩炸弹）",
    "not a document type SimSift reads (%1)": "不是 SimSift 读取的文档类型（%1）",
    "excluded by the pattern %1 (folder not searched)": "被模式 %1 排除（未搜索此文件夹）",
    "excluded by the pattern %1": "被模式 %1 排除", "same file as %1 (a link)": "与 %1 是同一文件（链接）",
    "not a regular file (device, pipe or socket)": "不是普通文件（设备、管道或套接字）", "hidden file": "隐藏文件",
    "hidden folder (not searched)": "隐藏文件夹（未搜索）", "system folder (not searched)": "系统文件夹（未搜索）",
    "link to a folder (not followed)": "指向文件夹的链接（未跟随）",
    "link to a file outside the scanned folders (not followed)": "指向扫描文件夹之外文件的链接（未跟随）",
    "Word 97–2003 .doc file: save it as .docx (or install antiword or LibreOffice to read it)":
        "Word 97–2003 .doc 文件：请另存为 .docx（或安装 antiword 或 LibreOffice 以读取）",
    "the PDF's fonts do not say which letters they show (no ToUnicode map); no text": "PDF 的字体没有说明显示的是哪些字符（无 ToUnicode 映射）；没有文本",
    "%1 characters could not be decoded (shown as �): the text is garbled": "%1 个字符无法解码（显示为 �）：文本是乱码",
    "%1 characters could not be decoded (shown as �)": "%1 个字符无法解码（显示为 �）",
    "1 character could not be decoded (shown as �): the text is garbled": "1 个字符无法解码（显示为 �）：文本是乱码",
    "1 character could not be decoded (shown as �)": "1 个字符无法解码（显示为 �）",
    "the Chinese text looks garbled: its encoding was probably misread": "中文文本看起来是乱码：编码可能被误读",
    "the text contains garbled letters such as “Ã©” or “â€™” (wrong encoding)": "文本含有“Ã©”或“â€™”这类乱码字母（编码错误）",
    "this file made a cluster worker fail (a crash, or over the time budget), twice": "此文件两次导致集群工作进程失败（崩溃或超时）",
    " · {run} words in a row": " · 连续 {run} 个词相同",
    "In a row": "连续相同",
    "Words in a row: the longest run of words both share verbatim (template and common text left out); 15 or more make a partial copy whatever the share": "连续相同的词：两篇共有的最长逐字相同的一段（不计模板和常见文字）；达到 15 个词即算部分抄袭，不论占比",
    "Save report…": "保存报告…", "Save report": "保存报告", "Report not saved": "报告未保存",
    "Save the selected document's report, to hand over, as PDF or HTML": "将所选文档的报告保存为 PDF 或 HTML，便于交付",
    "Similarity index {index}: found in {count} other documents": "相似度指数 {index}：见于另外 {count} 篇文档",
    "Similarity index {index}: found in 1 other document": "相似度指数 {index}：见于另外 1 篇文档",
    "Share of this document": "占本文档的比例",
    "No passage of this document was found in another document.": "本文档没有段落出现在其他文档中。",
    "SimSift {version} · {date}": "SimSift {version} · {date}",
    "PDF (*.pdf);;HTML page (*.html)": "PDF (*.pdf);;HTML 网页 (*.html)",
    "%1–%2%: %3 documents": "%1–%2%：%3 篇文档", "Overview": "概览",
    "How similar the documents are, which to read first, who shares text": "文档的相似程度、应先读哪些、谁与谁共有文本",
    "Read these first:": "请先阅读：", "Scan a folder to see how similar its documents are.": "扫描一个文件夹，查看其中文档的相似程度。",
    "partial-copy threshold %1": "部分抄袭阈值 %1",
    "Highest similarity index: %1 (%2) · median %3 over %4 documents": "最高相似度指数：%1（%2）· %4 篇文档的中位数 %3",
    "No documents share text.": "没有文档共有文本。",
    "%1 documents in one group are linked": "%1 篇文档同属一组，",
    "%1 documents in %2 groups are linked": "%1 篇文档分属 %2 组，",
    "by near duplicates within k or partial copies. Click a document to open it, a line to compare the two.":
        "由 k 以内的近似重复或部分抄袭相连。点击文档可打开，点击连线可并排比较两篇。",
    "%1 more are left out of the drawing.": "另有 %1 篇未画出。",
    "Each document found in part in others: how much, and where from": "每篇在其他文档中部分出现的文档：占多少、来自哪里",
    "Share of the document's own text found in any other document (template and common text excluded)":
        "本文档自身文本在任何其他文档中出现的比例（不计模板与常见文本）",
    "Text": "文本", "Documents": "文档数", "Times": "次数", "Example": "示例", "%1 files/s": "%1 个文件/秒", "%1 left": "剩余 %1",
    "Next difference": "下一处改动", "same sentence": "相同的句子", "similar sentence": "相似的句子",
    "moved sentence": "移动过的句子", "changed words": "改动的词", "inserted words": "插入的词", "deleted words": "删除的词",
    "Words are compared from the left document to the right one: deleted words are struck through on the left, inserted words underlined on the right.":
        "词语从左侧文档与右侧文档比较：删除的词在左侧加删除线，插入的词在右侧加下划线。",
    "Flags": "标记", "Integrity flag: %1": "完整性标记：%1",
    "Integrity flags: signs the text was disguised to slip past a checker (hidden text, look-alike letters, invisible characters)":
        "完整性标记：文本经过伪装以逃避检测的迹象（隐藏文字、形近字母、不可见字符）",
    "Integrity flags ({count}): signs the text was disguised to slip past a checker":
        "完整性标记（{count}）：文本经过伪装以逃避检测的迹象",
    "The disguise was undone before comparing; read the document itself.": "比较前已还原伪装；请阅读文档本身。",
    # what counts as copying (parameters panel) and excluded sources (Documents tab)
    "What counts as copying": "哪些算作抄袭", "Shortest match": "最短匹配", " words": " 个词",
    "Count quotations as copying": "引文计为抄袭", "Count the bibliography as copying": "参考文献计为抄袭",
    "Shared runs of fewer words than this never count as copying. Two documents sharing a run of this many words or more (Chinese: words as segmented) are a partial copy, however small a share of either it is. Lower finds shorter borrowed phrases, and more coincidences.":
        "共有的连续词语少于此数时，一律不计为抄袭。两篇文档共有连续达到此数（中文按分词计）或更多的词语时，即为部分抄袭，无论其占比多小。数值越低，越能发现较短的借用语句，巧合也越多。",
    'Text in quotation marks (“…”, "…", «…», 「…」, 『…』) and paragraphs that are one quotation (block quotes) are shown, but not counted as copying unless this is checked':
        '引号内的文字（“…”、"…"、«…»、「…」、『…』）以及整段引文（块引用）会显示，但除非勾选此项，否则不计为抄袭',
    "The references section (a heading such as References, Bibliography, Works cited or 参考文献, followed by a list of references, to the end of the essay or an appendix) is shown, but not counted as copying unless this is checked":
        "参考文献部分（以“参考文献”、References、Bibliography、Works cited 等标题开头、其后为文献列表，直到文末或附录）会显示，但除非勾选此项，否则不计为抄袭",
    "Shared runs of fewer than {run} words never count as copying, nor does template text or common text (found in more than {common} documents, or in more than {share} of them and at least {min_docs}).":
        "少于 {run} 个词的共有连续文字一律不计为抄袭，模板文本和常见文本（出现在超过 {common} 篇文档中，或出现在超过 {share} 的文档中且至少 {min_docs} 篇）也不计。",
    # set-apart, template and common text in the essay's text and the side-by-side view
    "In the text:": "正文中：", "quoted (not counted)": "引文（不计入）",
    "bibliography (not counted)": "参考文献（不计入）",
    "template text, also in a reference document (not counted)": "模板文本，也出现在参考文档中（不计入）",
    "common text, found in many documents (not counted)": "常见文本，出现在许多文档中（不计入）",
    "common text, found in {n} documents (not counted)": "常见文本，出现在 {n} 篇文档中（不计入）",
    "common text, found in {low} to {high} documents (not counted)": "常见文本，出现在 {low} 至 {high} 篇文档中（不计入）",
    "quoted or bibliography (not counted)": "引文或参考文献（不计入）",
    "Quotations count as copying.": "引文计为抄袭。", "Quotations are shown but not counted.": "引文仅显示，不计入。",
    "The bibliography counts as copying.": "参考文献计为抄袭。",
    "The bibliography is shown but not counted.": "参考文献仅显示，不计入。",
    "%1 (+%2 excluded)": "%1（另排除 %2）",
    "1 source excluded: it does not count in the similarity index": "已排除 1 个来源：不计入相似度指数",
    "%1 sources excluded: they do not count in the similarity index": "已排除 %1 个来源：不计入相似度指数",
    "Exclude a source": "排除来源", "Include a source again": "重新计入来源",
    "Leave a source out of this document's similarity index (the student's own draft, a shared reading): the pair is marked “not a duplicate”, so the text the two share counts for neither, here, in the other tabs and in later scans. Include again, or Edit ▸ Undo, brings it back.":
        "将某个来源排除在本文档的相似度指数之外（例如学生自己的草稿、共同的阅读材料）：这对文档会被标记为“不是重复”，两者的共有文本对双方都不再计入，在此处、其他标签页以及以后的扫描中都是如此。“重新计入”或“编辑 ▸ 撤销”可恢复。",
    "Include again": "重新计入", "Compare side by side": "并排比较", "Exclude this source": "排除此来源",
    "No text of this document counts: every document it was found in is an excluded source.":
        "本文档没有计入的文本：出现过其内容的文档都已被排除为来源。",
    "exclude": "排除", "include again": "重新计入", "Excluded sources (not counted)": "已排除的来源（不计入）",
    "Marked “not a duplicate” (say the student's own draft, or a shared reading): the text shared with them does not count.":
        "已标记为“不是重复”（例如学生自己的草稿或共同的阅读材料）：与其共有的文本不计入。",
    "Undo exclude source": "撤销排除来源", "compare": "比较",
    "Source excluded: the text the two documents share no longer counts, for either. Include again, or Edit ▸ Undo, brings it back.":
        "已排除来源：两篇文档的共有文本对双方都不再计入。“重新计入”或“编辑 ▸ 撤销”可恢复。",
    "Source included again: it counts as before.": "已重新计入来源：与之前一样计入。",
    # the first-run page, batch reports, moving files, clusters centred on an original
    '%1 essays compared; the other files read are reference documents or garbled.': '已比对 %1 篇作文；其余已读取的文件是参考文档或乱码文本。',
    'Save reports for the class…': '为全班保存报告…',
    'Save one report per essay into a folder, to hand over, as PDF or HTML': '把每篇作文的报告分别保存到一个文件夹，用于分发，格式为 PDF 或 HTML',
    'Here, with {total} documents compared, text found in {n} or more of them is common.': '本次共比较 {total} 篇文档，出现在其中 {n} 篇或以上的文本即为常见文本。',
    '(line hidden: it may name the writer)': '（此行已隐藏：可能含有作者姓名）',
    'Save reports for the class': '为全班保存报告',
    'One report per essay (%1 essays), each in its own file named after the essay, to hand over. Files already in the folder are kept.': '每篇作文一份报告（共 %1 篇），各自保存为以作文命名的文件，用于分发。文件夹中已有的文件会保留。',
    'PDF': 'PDF',
    'HTML page': 'HTML 网页',
    'Choose…': '选择…',
    'Format': '格式',
    'Folder for the reports': '报告保存文件夹',
    'Saving the reports…': '正在保存报告…',
    'Saving the reports… %1 of %2': '正在保存报告… 第 %1 份，共 %2 份',
    '%1 reports saved in:': '已保存 %1 份报告，位于：',
    '1 report saved in:': '已保存 1 份报告，位于：',
    'Reports saved': '报告已保存',
    'Cancelled: %1 of %2 reports were saved in:': '已取消：%2 份报告中已保存 %1 份，位于：',
    'Reports cancelled': '已取消保存报告',
    'Stopped after %1 of %2 reports: %3': '保存 %2 份报告中的 %1 份后停止：%3',
    'Reports not saved': '报告未保存',
    'similarity report': '相似度报告',
    'Similarity reports': '相似度报告',
    'Open folder': '打开文件夹',
    'Saved as “%1” in:': '已保存为“%1”，位于：',
    'Report saved': '报告已保存',
    'quoted, bibliography or template (not counted)': '引文、参考文献或模板文本（不计入）',
    'archive: %1': '存档：%1',
    'Open first': '优先打开',
    'Documents (teacher)': '文档（教师）',
    'Clusters (editor)': '重复组（编辑）',
    '☑ Ticked: reference folder (the prompt, handouts) · right-click: archive': '☑ 勾选：参考文件夹（题目、讲义）· 右键：存档',
    'Find documents that copy from each other': '找出相互抄袭的文档',
    'Drop folders here': '将文件夹拖放到此处',
    '1. Drop the folders to check here or on the list at the left.': '1. 将要检查的文件夹拖放到此处或左侧列表中。',
    "2. Tick a folder's box to make it a reference folder: the assignment prompt, handouts, the course reading. Text also found there is template text: shown, never counted as copying.": '2. 勾选文件夹即设为参考文件夹：作业题目、讲义、课程阅读材料。其中也出现的文字属于模板文本：会显示，但从不计为抄袭。',
    "3. Right-click a folder and choose Archive for previous years' documents: they are indexed once, and the other folders are checked against them.": '3. 右键单击文件夹并选择“存档”以存放往年文档：只建一次索引，其他文件夹将与之比对。',
    '4. Press Scan.': '4. 点击“扫描”。',
    'What do you check? (the tab that opens first)': '您要检查什么？（决定优先打开的标签页）',
    "Students' essays (teacher)": '学生作文（教师）',
    'Documents opens first: every essay with its similarity index and the documents its text was found in.': '优先打开“文档”：每篇作文及其相似度指数，以及其文字出现在哪些文档中。',
    'Files and drafts (editor)': '文件和草稿（编辑）',
    'Clusters opens first: near-duplicate files grouped under their original, to keep one and move the copies to the trash.': '优先打开“重复组”：近似重复的文件归在原件之下，保留一份，将副本移到回收站。',
    'The tabs': '各标签页',
    "The teacher's list: each document found in part in others, its similarity index and sources. Select one to read its text coloured by source, and save its report.": '教师用的列表：每篇部分内容见于其他文档的文档，及其相似度指数和来源。选中一篇即可阅读按来源着色的正文并保存报告。',
    "The editor's list: near-duplicate files grouped under their original, to mark the copies and move them to the trash.": '编辑用的列表：近似重复的文件归在原件之下，可标记副本并移到回收站。',
    'Partial copies': '部分抄袭',
    'Pairs of documents sharing passages that Clusters does not show.': '共享段落、但未在“重复组”中显示的文档对。',
    'Common text': '常见文本',
    'Passages found in many documents (a shared prompt, boilerplate): not counted as copying.': '出现在许多文档中的段落（共同的题目、套话）：不计为抄袭。',
    'How similar the documents are, which to read first, who shares text.': '文档的相似程度、应先读哪些、谁与谁共享文字。',
    'Problems': '问题',
    'Files that could not be read, or were read with a warning.': '无法读取或读取时有警告的文件。',
    'Select a pair in any tab to see the two documents side by side below.': '在任一标签页中选择一对文档，即可在下方并排查看。',
    "Marked 1 file: all but its cluster's original.": '已标记 1 个文件：除其所在簇的原件外全部。',
    "Marked %1 files: all but each cluster's original.": '已标记 %1 个文件：除各簇的原件外全部。',
    '%1 files within k of a marked file but farther than k from every original are in no cluster and were not marked.': '%1 个文件与某个已标记文件的距离在 k 以内，但与所有原件的距离都超过 k，不属于任何簇，未被标记。',
    '%1 files in reference or archive folders were not marked.': '%1 个位于参考文件夹或存档文件夹中的文件未被标记。',
    'In a reference or archive folder: never marked or moved.': '位于参考文件夹或存档文件夹中：从不标记或移动。',
    'Move or copy checked to a folder…': '将勾选的文件移动或复制到文件夹…',
    'Move or copy checked files to': '将勾选的文件移动或复制到',
    'Move or copy to a folder': '移动或复制到文件夹',
    'Move or copy 1 checked file into %1?': '将 1 个勾选的文件移动或复制到 %1？',
    'Move or copy %2 checked files into %1?': '将 %2 个勾选的文件移动或复制到 %1？',
    'A file of the same name there is never replaced: the new one gets a number, as “essay (1).txt”. Copying leaves the checked files where they are.': '那里的同名文件不会被替换：新文件会加上编号，如“essay (1).txt”。复制会把勾选的文件留在原处。',
    'Move': '移动',
    'Copy': '复制',
    'Moved 1 file to %2.': '已将 1 个文件移动到 %2。',
    'Moved %1 files to %2.': '已将 %1 个文件移动到 %2。',
    'Copied 1 file to %2.': '已将 1 个文件复制到 %2。',
    'Copied %1 files to %2.': '已将 %1 个文件复制到 %2。',
    'Some files were not copied': '部分文件未能复制',
    'Adding to the archive': '加入存档',
    'Indexing the archive': '索引存档',
    'Checking against the archive': '与存档比对',
    'Not available while an archive folder is in the list: the archive keeps fingerprints made without idf, so the other folders are checked the same way': '列表中有存档文件夹时不可用：存档保存的是不含 idf 的指纹，因此其他文件夹也以同样方式检查',
    'quoted, references, template or common text (not counted)': '引文、参考文献、模板或常见文本（不计入）',
    "disguised text (see the integrity flags)": "伪装的文字（见完整性标记）",
    "Read scanned PDFs (OCR)": "读取扫描的 PDF（OCR）",
    "PDFs without a text layer are read by OCR (Tesseract), about 2 to 6 seconds a page; off, they are listed in Problems as not read.": "没有文字层的 PDF 用 OCR（Tesseract）读取，每页约 2 至 6 秒；关闭时，这些文件在“问题”中列为未读取。",
}  # fmt: skip

# where one English word reads differently in one place: (context, source) -> translation
IN_CONTEXT = {
    ("WelcomePage", "Documents"): "文档",
}

tree = ET.parse(sys.argv[1])
missing = []
message_context = {
    message: context.findtext("name")
    for context in tree.getroot().iter("context")
    for message in context.iter("message")
}
for message in tree.getroot().iter("message"):
    source = message.find("source").text
    translation = message.find("translation")
    context = message_context[message]
    if (context, source) in IN_CONTEXT:
        translation.text = IN_CONTEXT[context, source]
        translation.attrib.pop("type", None)
    elif source in ZH:
        translation.text = ZH[source]
        translation.attrib.pop("type", None)
    else:
        missing.append(source)
tree.write(sys.argv[1], encoding="utf-8", xml_declaration=True)
print("untranslated:", missing)
