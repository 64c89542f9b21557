<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>BatchReportDialog</name>
    <message>
        <location filename="../../app/dialogs/batch_report.py" line="67" />
        <source>Save reports for the class</source>
        <translation>为全班保存报告</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/batch_report.py" line="70" />
        <source>One report per essay (%1 essays), each in its own file named after the essay, to hand over. Files already in the folder are kept.</source>
        <translation>每篇作文一份报告（共 %1 篇），各自保存为以作文命名的文件，用于分发。文件夹中已有的文件会保留。</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/batch_report.py" line="77" />
        <source>PDF</source>
        <translation>PDF</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/batch_report.py" line="78" />
        <source>HTML page</source>
        <translation>HTML 网页</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/batch_report.py" line="82" />
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/batch_report.py" line="88" />
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/batch_report.py" line="89" />
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/batch_report.py" line="113" />
        <source>Folder for the reports</source>
        <translation>报告保存文件夹</translation>
    </message>
</context>
<context>
    <name>ClassReports</name>
    <message>
        <location filename="../../app/dialogs/batch_report.py" line="59" />
        <source>similarity report</source>
        <translation>相似度报告</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/batch_report.py" line="139" />
        <source>Saving the reports…</source>
        <translation>正在保存报告…</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/batch_report.py" line="139" />
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/batch_report.py" line="141" />
        <source>Save reports for the class</source>
        <translation>为全班保存报告</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/batch_report.py" line="163" />
        <source>Saving the reports… %1 of %2</source>
        <translation>正在保存报告… 第 %1 份，共 %2 份</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/batch_report.py" line="174" />
        <source>%1 reports saved in:</source>
        <translation>已保存 %1 份报告，位于：</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/batch_report.py" line="176" />
        <source>1 report saved in:</source>
        <translation>已保存 1 份报告，位于：</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/batch_report.py" line="178" />
        <source>Reports saved</source>
        <translation>报告已保存</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/batch_report.py" line="185" />
        <source>Cancelled: %1 of %2 reports were saved in:</source>
        <translation>已取消：%2 份报告中已保存 %1 份，位于：</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/batch_report.py" line="189" />
        <source>Reports cancelled</source>
        <translation>已取消保存报告</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/batch_report.py" line="197" />
        <source>Stopped after %1 of %2 reports: %3</source>
        <translation>保存 %2 份报告中的 %1 份后停止：%3</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/batch_report.py" line="203" />
        <location filename="../../app/dialogs/batch_report.py" line="242" />
        <source>Reports not saved</source>
        <translation>报告未保存</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/batch_report.py" line="229" />
        <source>Similarity reports</source>
        <translation>相似度报告</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/batch_report.py" line="268" />
        <source>Open folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/batch_report.py" line="282" />
        <source>Saved as “%1” in:</source>
        <translation>已保存为“%1”，位于：</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/batch_report.py" line="285" />
        <source>Report saved</source>
        <translation>报告已保存</translation>
    </message>
</context>
<context>
    <name>ClusterModel</name>
    <message>
        <location filename="../../app/models/clusters.py" line="343" />
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../app/models/clusters.py" line="344" />
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location filename="../../app/models/clusters.py" line="345" />
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../app/models/clusters.py" line="346" />
        <source>Distance</source>
        <translation>距离</translation>
    </message>
    <message>
        <location filename="../../app/models/clusters.py" line="347" />
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location filename="../../app/models/clusters.py" line="348" />
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../app/models/clusters.py" line="397" />
        <source>Cluster %1 · %2 files</source>
        <translation>第 %1 组 · %2 个文件</translation>
    </message>
    <message>
        <location filename="../../app/models/clusters.py" line="404" />
        <source>≤ %1</source>
        <translation>≤ %1</translation>
    </message>
    <message>
        <location filename="../../app/models/clusters.py" line="431" />
        <source>In a reference or archive folder: never marked or moved.</source>
        <translation>位于参考文件夹或存档文件夹中：从不标记或移动。</translation>
    </message>
</context>
<context>
    <name>ClustersPanel</name>
    <message>
        <location filename="../../app/panels/clusters.py" line="67" />
        <source>Filter by file name, folder or title…</source>
        <translation>按文件名、文件夹或标题筛选…</translation>
    </message>
    <message>
        <location filename="../../app/panels/clusters.py" line="74" />
        <source>Clusters</source>
        <translation>重复组</translation>
    </message>
    <message>
        <location filename="../../app/panels/clusters.py" line="107" />
        <source>Marked 1 file: all but its cluster's original.</source>
        <translation>已标记 1 个文件：除其所在簇的原件外全部。</translation>
    </message>
    <message>
        <location filename="../../app/panels/clusters.py" line="109" />
        <source>Marked %1 files: all but each cluster's original.</source>
        <translation>已标记 %1 个文件：除各簇的原件外全部。</translation>
    </message>
    <message>
        <location filename="../../app/panels/clusters.py" line="115" />
        <source>%1 files within k of a marked file but farther than k from every original are in no cluster and were not marked.</source>
        <translation>%1 个文件与某个已标记文件的距离在 k 以内，但与所有原件的距离都超过 k，不属于任何簇，未被标记。</translation>
    </message>
    <message>
        <location filename="../../app/panels/clusters.py" line="121" />
        <source>%1 files farther than k from their cluster's original were not marked.</source>
        <translation>%1 个与本组原件距离超过 k 的文件未被标记。</translation>
    </message>
    <message>
        <location filename="../../app/panels/clusters.py" line="125" />
        <source>%1 files in reference or archive folders were not marked.</source>
        <translation>%1 个位于参考文件夹或存档文件夹中的文件未被标记。</translation>
    </message>
</context>
<context>
    <name>CommonTextModel</name>
    <message>
        <location filename="../../app/models/common.py" line="50" />
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <location filename="../../app/models/common.py" line="51" />
        <source>Documents</source>
        <translation>文档数</translation>
    </message>
    <message>
        <location filename="../../app/models/common.py" line="52" />
        <source>Times</source>
        <translation>次数</translation>
    </message>
    <message>
        <location filename="../../app/models/common.py" line="53" />
        <source>Example</source>
        <translation>示例</translation>
    </message>
</context>
<context>
    <name>CommonTextPanel</name>
    <message>
        <location filename="../../app/panels/common_text.py" line="30" />
        <source>Common text (%1)</source>
        <translation>常见文本（%1）</translation>
    </message>
    <message>
        <location filename="../../app/panels/common_text.py" line="34" />
        <source>Passages found in many documents (licences, boilerplate, a shared prompt): left out of partial copying</source>
        <translation>在许多文档中出现的段落（许可证、样板文字、共同的题目）：不计入部分抄袭</translation>
    </message>
</context>
<context>
    <name>DiffView</name>
    <message>
        <location filename="../../app/diff/view.py" line="308" />
        <source>Previous match</source>
        <translation>上一处匹配</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="309" />
        <source>Next match</source>
        <translation>下一处匹配</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="313" />
        <source>Next difference</source>
        <translation>下一处改动</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="517" />
        <source>Aligning…</source>
        <translation>正在对齐…</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="529" />
        <source>no passage shared word for word</source>
        <translation>没有逐字相同的段落</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="531" />
        <source>1 shared passage of {longest} words</source>
        <translation>1 段共有段落，{longest} 词</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="533" />
        <source>{n} shared passages, longest {longest} words</source>
        <translation>{n} 段共有段落，最长 {longest} 词</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="536" />
        <source> · {run} words in a row</source>
        <translation> · 连续 {run} 个词相同</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="538" />
        <source>Hamming distance {d} · A in B {ab} · B in A {ba} · {passages}</source>
        <translation>汉明距离 {d} · A 在 B 中 {ab} · B 在 A 中 {ba} · {passages}</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="546" />
        <source>Aligned sentences: {a} of A, {b} of B</source>
        <translation>对齐的句子：占 A 的 {a}，占 B 的 {b}</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="553" />
        <source>Rarest shared words (documents using each): {words}</source>
        <translation>最罕见的共有词（使用该词的文档数）：{words}</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="566" />
        <source>Found by meaning: {passages}. The words differ: read both sides before deciding.</source>
        <translation>按意思发现：{passages}。措辞不同：请读完两边再作判断。</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="571" />
        <source>By meaning: A in B {ab} · B in A {ba}</source>
        <translation>按意思：A 在 B 中 {ab} · B 在 A 中 {ba}</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="578" />
        <source>1 translated passage</source>
        <translation>1 段翻译的段落</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="578" />
        <source>{n} translated passages</source>
        <translation>{n} 段翻译的段落</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="580" />
        <source>1 paraphrased passage</source>
        <translation>1 段改写的段落</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="582" />
        <source>{n} paraphrased passages</source>
        <translation>{n} 段改写的段落</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="594" />
        <source>Translated passage: these sentences say the same in Chinese and English. Evidence to read, not proof: compare the two sides before deciding.</source>
        <translation>翻译的段落：这些句子用中文和英文说了同样的内容。这是供阅读的证据，而非定论：请比较两边再作判断。</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="599" />
        <source>Paraphrased passage: these sentences say the same in other words. Evidence to read, not proof: compare the two sides before deciding.</source>
        <translation>改写的段落：这些句子用别的话说了同样的内容。这是供阅读的证据，而非定论：请比较两边再作判断。</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="647" />
        <source>Paraphrased passage: evidence to read, not proof (click to see both sides)</source>
        <translation>改写的段落：供阅读的证据，而非定论（点击查看两边）</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="650" />
        <source>Translated passage: evidence to read, not proof (click to see both sides)</source>
        <translation>翻译的段落：供阅读的证据，而非定论（点击查看两边）</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="658" />
        <source>same sentence</source>
        <translation>相同的句子</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="659" />
        <source>similar sentence</source>
        <translation>相似的句子</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="660" />
        <source>moved sentence</source>
        <translation>移动过的句子</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="661" />
        <source>changed words</source>
        <translation>改动的词</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="662" />
        <source>inserted words</source>
        <translation>插入的词</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="663" />
        <source>deleted words</source>
        <translation>删除的词</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="666" />
        <source>paraphrased passage</source>
        <translation>改写的段落</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="668" />
        <source>translated passage</source>
        <translation>翻译的段落</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="670" />
        <source>quoted, references, template or common text (not counted)</source>
        <translation>引文、参考文献、模板或常见文本（不计入）</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="673" />
        <source>quoted or bibliography (not counted)</source>
        <translation>引文或参考文献（不计入）</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="677" />
        <source>Words are compared from the left document to the right one: deleted words are struck through on the left, inserted words underlined on the right.</source>
        <translation>词语从左侧文档与右侧文档比较：删除的词在左侧加删除线，插入的词在右侧加下划线。</translation>
    </message>
    <message>
        <location filename="../../app/diff/view.py" line="515" />
        <source>Could not align: {message}</source>
        <translation>无法对齐：{message}</translation>
    </message>
</context>
<context>
    <name>DisplayNames</name>
    <message>
        <location filename="../../app/readable.py" line="30" />
        <source>archive: %1</source>
        <translation>存档：%1</translation>
    </message>
</context>
<context>
    <name>DocumentPicker</name>
    <message>
        <location filename="../../app/dialogs/text.py" line="101" />
        <source>Show extracted text</source>
        <translation>显示提取的文本</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/text.py" line="104" />
        <source>Type part of the file name or folder…</source>
        <translation>输入文件名或文件夹的一部分…</translation>
    </message>
</context>
<context>
    <name>DocumentsModel</name>
    <message>
        <location filename="../../app/models/documents.py" line="142" />
        <source>Integrity flags: signs the text was disguised to slip past a checker (hidden text, look-alike letters, invisible characters)</source>
        <translation>完整性标记：文本经过伪装以逃避检测的迹象（隐藏文字、形近字母、不可见字符）</translation>
    </message>
    <message>
        <location filename="../../app/models/documents.py" line="147" />
        <source>Share of the document's own text found word for word in any other document (template and common text excluded)</source>
        <translation>本文档自身文本逐字出现在任何其他文档中的比例（不计模板与常见文本）</translation>
    </message>
    <message>
        <location filename="../../app/models/documents.py" line="152" />
        <source>Share of the document's own text that says what another document says in other words (found by meaning, apart from the similarity index): evidence to read side by side, not proof</source>
        <translation>文档自身文本中用别的话说出另一篇文档内容的比例（按意思发现，不计入相似度指数）：供并排阅读的证据，而非定论</translation>
    </message>
    <message>
        <location filename="../../app/models/documents.py" line="158" />
        <source>Share of the document's own text translated from another document, Chinese ↔ English (found by meaning, apart from the similarity index): evidence to read side by side, not proof</source>
        <translation>文档自身文本中译自另一篇文档（中文 ↔ 英文）的比例（按意思发现，不计入相似度指数）：供并排阅读的证据，而非定论</translation>
    </message>
    <message>
        <location filename="../../app/models/documents.py" line="165" />
        <source>Document</source>
        <translation>文档</translation>
    </message>
    <message>
        <location filename="../../app/models/documents.py" line="166" />
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location filename="../../app/models/documents.py" line="167" />
        <source>Similarity index</source>
        <translation>相似度指数</translation>
    </message>
    <message>
        <location filename="../../app/models/documents.py" line="168" />
        <source>Sources</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../app/models/documents.py" line="169" />
        <source>Largest source</source>
        <translation>最大来源</translation>
    </message>
    <message>
        <location filename="../../app/models/documents.py" line="170" />
        <source>Its share</source>
        <translation>其占比</translation>
    </message>
    <message>
        <location filename="../../app/models/documents.py" line="171" />
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <location filename="../../app/models/documents.py" line="172" />
        <source>Flags</source>
        <translation>标记</translation>
    </message>
    <message>
        <location filename="../../app/models/documents.py" line="173" />
        <source>Paraphrased</source>
        <translation>改写</translation>
    </message>
    <message>
        <location filename="../../app/models/documents.py" line="174" />
        <source>Translated</source>
        <translation>翻译</translation>
    </message>
    <message>
        <location filename="../../app/models/documents.py" line="212" />
        <source>%1 (+%2 excluded)</source>
        <translation>%1（另排除 %2）</translation>
    </message>
    <message>
        <location filename="../../app/models/documents.py" line="248" />
        <location filename="../../app/models/documents.py" line="267" />
        <source>%1 verbatim</source>
        <translation>%1 逐字相同</translation>
    </message>
    <message>
        <location filename="../../app/models/documents.py" line="253" />
        <source>%1 in all</source>
        <translation>合计 %1</translation>
    </message>
    <message>
        <location filename="../../app/models/documents.py" line="257" />
        <source>%1 paraphrased</source>
        <translation>%1 改写</translation>
    </message>
    <message>
        <location filename="../../app/models/documents.py" line="257" />
        <source>%1 translated</source>
        <translation>%1 翻译</translation>
    </message>
    <message>
        <location filename="../../app/models/documents.py" line="271" />
        <source>%1 from %2</source>
        <translation>%1 来自 %2</translation>
    </message>
    <message>
        <location filename="../../app/models/documents.py" line="278" />
        <source>1 source excluded: it does not count in the similarity index</source>
        <translation>已排除 1 个来源：不计入相似度指数</translation>
    </message>
    <message>
        <location filename="../../app/models/documents.py" line="279" />
        <source>%1 sources excluded: they do not count in the similarity index</source>
        <translation>已排除 %1 个来源：不计入相似度指数</translation>
    </message>
</context>
<context>
    <name>DocumentsPanel</name>
    <message>
        <location filename="../../app/panels/documents.py" line="192" />
        <source>Documents (%1)</source>
        <translation>文档（%1）</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="195" />
        <source>Each document found in part in others: how much, and where from</source>
        <translation>每篇在其他文档中部分出现的文档：占多少、来自哪里</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="198" />
        <source>Filter by file name or folder…</source>
        <translation>按文件名或文件夹筛选…</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="199" />
        <source>Save report…</source>
        <translation>保存报告…</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="205" />
        <source>Save the selected document's report, to hand over, as PDF or HTML</source>
        <translation>将所选文档的报告保存为 PDF 或 HTML，便于交付</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="207" />
        <source>Exclude a source</source>
        <translation>排除来源</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="210" />
        <source>Leave a source out of this document's similarity index (the student's own draft, a shared reading): the pair is marked “not a duplicate”, so the text the two share counts for neither, here, in the other tabs and in later scans. Include again, or Edit ▸ Undo, brings it back.</source>
        <translation>将某个来源排除在本文档的相似度指数之外（例如学生自己的草稿、共同的阅读材料）：这对文档会被标记为“不是重复”，两者的共有文本对双方都不再计入，在此处、其他标签页以及以后的扫描中都是如此。“重新计入”或“编辑 ▸ 撤销”可恢复。</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="216" />
        <source>Include a source again</source>
        <translation>重新计入来源</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="299" />
        <source>Include again</source>
        <translation>重新计入</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="303" />
        <source>Compare side by side</source>
        <translation>并排比较</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="306" />
        <source>Exclude this source</source>
        <translation>排除此来源</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="331" />
        <source>No text of this document counts: every document it was found in is an excluded source.</source>
        <translation>本文档没有计入的文本：出现过其内容的文档都已被排除为来源。</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="338" />
        <source>Similarity index {index}: found in {count} other documents</source>
        <translation>相似度指数 {index}：见于另外 {count} 篇文档</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="339" />
        <source>Similarity index {index}: found in 1 other document</source>
        <translation>相似度指数 {index}：见于另外 1 篇文档</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="340" />
        <source>Sources</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="341" />
        <source>Share of this document</source>
        <translation>占本文档的比例</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="335" />
        <source>No passage of this document was found in another document.</source>
        <translation>本文档没有段落出现在其他文档中。</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="342" />
        <source>compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="345" />
        <source>Shared runs of fewer than {run} words never count as copying, nor does template text or common text (found in more than {common} documents, or in more than {share} of them and at least {min_docs}).</source>
        <translation>少于 {run} 个词的共有连续文字一律不计为抄袭，模板文本和常见文本（出现在超过 {common} 篇文档中，或出现在超过 {share} 的文档中且至少 {min_docs} 篇）也不计。</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="350" />
        <source>Nor does boilerplate: a short paragraph of its own at the start or end of at least {edge} documents (a course footer, an honour-code statement).</source>
        <translation>套话也不计入：在至少 {edge} 篇文档开头或结尾单独成段的简短段落（如课程页脚、诚信声明）。</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="360" />
        <source>quoted, also in {name} (not counted)</source>
        <translation>引文，亦见于 {name}（不计入）</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="361" />
        <source>quoted, cited, also in {name} (not counted)</source>
        <translation>引文，已注明出处，亦见于 {name}（不计入）</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="372" />
        <source>SimSift {version} · {date}</source>
        <translation>SimSift {version} · {date}</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="373" />
        <source>Verdict: {verdict} ({date})</source>
        <translation>结论：{verdict}（{date}）</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="374" />
        <source>copying confirmed</source>
        <translation>确认抄袭</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="375" />
        <source>not copying</source>
        <translation>不是抄袭</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="377" />
        <source>Integrity flags ({count}): signs the text was disguised to slip past a checker</source>
        <translation>完整性标记（{count}）：文本经过伪装以逃避检测的迹象</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="380" />
        <source>The disguise was undone before comparing; read the document itself.</source>
        <translation>比较前已还原伪装；请阅读文档本身。</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="353" />
        <source>Quotations count as copying.</source>
        <translation>引文计为抄袭。</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="200" />
        <source>Save reports for the class…</source>
        <translation>为全班保存报告…</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="202" />
        <source>Save one report per essay into a folder, to hand over, as PDF or HTML</source>
        <translation>把每篇作文的报告分别保存到一个文件夹，用于分发，格式为 PDF 或 HTML</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="354" />
        <source>Quotations are shown but not counted.</source>
        <translation>引文仅显示，不计入。</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="355" />
        <source>The bibliography counts as copying.</source>
        <translation>参考文献计为抄袭。</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="356" />
        <source>The bibliography is shown but not counted.</source>
        <translation>参考文献仅显示，不计入。</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="357" />
        <source>In the text:</source>
        <translation>正文中：</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="358" />
        <source>quoted (not counted)</source>
        <translation>引文（不计入）</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="359" />
        <source>quoted, cited (not counted)</source>
        <translation>引用，已注明出处（不计入）</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="362" />
        <source>bibliography (not counted)</source>
        <translation>参考文献（不计入）</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="363" />
        <source>template text, also in a reference document (not counted)</source>
        <translation>模板文本，也出现在参考文档中（不计入）</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="364" />
        <source>common text, found in many documents (not counted)</source>
        <translation>常见文本，出现在许多文档中（不计入）</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="365" />
        <source>common text, found in {n} documents (not counted)</source>
        <translation>常见文本，出现在 {n} 篇文档中（不计入）</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="366" />
        <source>common text, found in {low} to {high} documents (not counted)</source>
        <translation>常见文本，出现在 {low} 至 {high} 篇文档中（不计入）</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="368" />
        <source>Here, with {total} documents compared, text found in {n} or more of them is common.</source>
        <translation>本次共比较 {total} 篇文档，出现在其中 {n} 篇或以上的文本即为常见文本。</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="371" />
        <source>(line hidden: it may name the writer)</source>
        <translation>（此行已隐藏：可能含有作者姓名）</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="382" />
        <source>disguised text (see the integrity flags)</source>
        <translation>伪装的文字（见完整性标记）</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="384" />
        <source>All kinds {total}: {parts}</source>
        <translation>各类合计 {total}：{parts}</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="385" />
        <source>{share} verbatim</source>
        <translation>{share} 逐字相同</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="386" />
        <source>{share} paraphrased</source>
        <translation>{share} 改写</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="387" />
        <source>{share} translated</source>
        <translation>{share} 翻译</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="388" />
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="389" />
        <source>Found by meaning</source>
        <translation>按意思发现</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="390" />
        <source>paraphrased from {name}: the same meaning in other words</source>
        <translation>改写自 {name}：用别的话表达同样的意思</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="392" />
        <source>translated from {name}: the same meaning in the other language</source>
        <translation>译自 {name}：用另一种语言表达同样的意思</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="394" />
        <source>paraphrased (found by meaning)</source>
        <translation>改写（按意思发现）</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="395" />
        <source>translated (found by meaning)</source>
        <translation>翻译（按意思发现）</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="397" />
        <source>A paraphrased or translated passage is evidence for a person to read, not proof: compare it with the source passage beside it before deciding.</source>
        <translation>改写或翻译的段落是供人阅读的证据，而非定论：请先与旁边的来源段落比较再作判断。</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="400" />
        <source>In this document:</source>
        <translation>本文档中：</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="401" />
        <source>In {name} ({kind}, score {score}):</source>
        <translation>{name} 中（{kind}，得分 {score}）：</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="402" />
        <source>paraphrased</source>
        <translation>改写</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="403" />
        <source>translated</source>
        <translation>翻译</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="426" />
        <source>exclude</source>
        <translation>排除</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="421" />
        <source>Excluded sources (not counted)</source>
        <translation>已排除的来源（不计入）</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="423" />
        <source>Marked “not a duplicate” (say the student's own draft, or a shared reading): the text shared with them does not count.</source>
        <translation>已标记为“不是重复”（例如学生自己的草稿或共同的阅读材料）：与其共有的文本不计入。</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="427" />
        <source>include again</source>
        <translation>重新计入</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="461" />
        <source>Save report</source>
        <translation>保存报告</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="463" />
        <source>PDF (*.pdf);;HTML page (*.html)</source>
        <translation>PDF (*.pdf);;HTML 网页 (*.html)</translation>
    </message>
    <message>
        <location filename="../../app/panels/documents.py" line="472" />
        <source>Report not saved</source>
        <translation>报告未保存</translation>
    </message>
</context>
<context>
    <name>ExtractedTextDialog</name>
    <message>
        <location filename="../../app/dialogs/text.py" line="35" />
        <source>Extracted text — %1</source>
        <translation>提取的文本 — %1</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/text.py" line="55" />
        <source>Read as %1 · %2 paragraphs · %3 characters · %4 words</source>
        <translation>按 %1 读取 · %2 段 · %3 个字符 · %4 个词</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/text.py" line="62" />
        <source>Warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/text.py" line="65" />
        <source>Integrity flag: %1</source>
        <translation>完整性标记：%1</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/text.py" line="67" />
        <source>In grey italics: quotations and the bibliography, set apart.</source>
        <translation>灰色斜体：引文和参考文献，单独列出。</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/text.py" line="74" />
        <source>quotation</source>
        <translation>引文</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/text.py" line="74" />
        <source>bibliography</source>
        <translation>参考文献</translation>
    </message>
</context>
<context>
    <name>FolderList</name>
    <message>
        <location filename="../../app/panels/folders.py" line="104" />
        <source>Folders to scan (drop folders here):</source>
        <translation>要扫描的文件夹（可将文件夹拖放到此处）：</translation>
    </message>
    <message>
        <location filename="../../app/panels/folders.py" line="106" />
        <source>☑ Ticked: reference folder (the prompt, handouts) · right-click: archive</source>
        <translation>☑ 勾选：参考文件夹（题目、讲义）· 右键：存档</translation>
    </message>
    <message>
        <location filename="../../app/panels/folders.py" line="108" />
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <location filename="../../app/panels/folders.py" line="109" />
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../app/panels/folders.py" line="110" />
        <source>Exclude patterns:</source>
        <translation>排除模式：</translation>
    </message>
    <message>
        <location filename="../../app/panels/folders.py" line="111" />
        <source>e.g. *.tmp, drafts/*</source>
        <translation>例如 *.tmp, drafts/*</translation>
    </message>
    <message>
        <location filename="../../app/panels/folders.py" line="112" />
        <source>Read scans and pictures of text (OCR)</source>
        <translation>读取扫描件和文字图片（OCR）</translation>
    </message>
    <message>
        <location filename="../../app/panels/folders.py" line="115" />
        <source>Scanned PDFs and pages, and pictures of text in Word, ODT and web pages, are read by OCR (Tesseract), about 2 to 6 seconds a page; off, scans are listed in Problems as not read and pictures are left out, with a warning.</source>
        <translation>扫描的 PDF 和页面，以及 Word、ODT 和网页中的文字图片，用 OCR（Tesseract）读取，每页约 2 至 6 秒；关闭时，扫描件在“问题”中列为未读取，图片被略过并附有警告。</translation>
    </message>
    <message>
        <location filename="../../app/panels/folders.py" line="121" />
        <source>Tick a folder to use it as a reference (e.g. the assignment prompt).</source>
        <translation>勾选文件夹即作为参考文件夹（例如作业题目）。</translation>
    </message>
    <message>
        <location filename="../../app/panels/folders.py" line="123" />
        <source>Archive (previous years)</source>
        <translation>存档（往年）</translation>
    </message>
    <message>
        <location filename="../../app/panels/folders.py" line="129" />
        <source>Ticked: reference folder, compared with the others but not among itself</source>
        <translation>已勾选：参考文件夹，与其他文件比较，但其内部文件之间不比较</translation>
    </message>
    <message>
        <location filename="../../app/panels/folders.py" line="133" />
        <source>Archive: indexed once and kept; the other folders are checked against it, its documents are never compared with each other (right-click to change)</source>
        <translation>存档：只建一次索引并保留；其他文件夹与之比对，存档内的文档之间从不互相比较（右键可更改）</translation>
    </message>
    <message>
        <location filename="../../app/panels/folders.py" line="208" />
        <source>archive</source>
        <translation>存档</translation>
    </message>
    <message>
        <location filename="../../app/panels/folders.py" line="243" />
        <source>Add folder</source>
        <translation>添加文件夹</translation>
    </message>
</context>
<context>
    <name>GuideDialog</name>
    <message>
        <location filename="../../app/dialogs/guide.py" line="23" />
        <source>SimSift user guide</source>
        <translation>SimSift 使用指南</translation>
    </message>
</context>
<context>
    <name>Histogram</name>
    <message>
        <location filename="../../app/panels/overview.py" line="94" />
        <source>%1–%2%: %3 documents</source>
        <translation>%1–%2%：%3 篇文档</translation>
    </message>
</context>
<context>
    <name>Kinds</name>
    <message>
        <location filename="../../app/models/clusters.py" line="75" />
        <source>original</source>
        <translation>原件</translation>
    </message>
    <message>
        <location filename="../../app/models/clusters.py" line="76" />
        <source>exact</source>
        <translation>完全相同</translation>
    </message>
    <message>
        <location filename="../../app/models/clusters.py" line="77" />
        <source>same text</source>
        <translation>文本相同</translation>
    </message>
    <message>
        <location filename="../../app/models/clusters.py" line="78" />
        <source>near</source>
        <translation>近似</translation>
    </message>
    <message>
        <location filename="../../app/models/clusters.py" line="79" />
        <source>partial</source>
        <translation>部分抄袭</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../app/main_window.py" line="280" />
        <source>SimSift — near-duplicate and plagiarism checker</source>
        <translation>SimSift — 近似重复与抄袭检测</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="281" />
        <location filename="../../app/main_window.py" line="296" />
        <source>Scan</source>
        <translation>扫描</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="285" />
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="286" />
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="287" />
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="288" />
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="289" />
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="290" />
        <source>Open first</source>
        <translation>优先打开</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="291" />
        <source>Documents (teacher)</source>
        <translation>文档（教师）</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="292" />
        <source>Clusters (editor)</source>
        <translation>重复组（编辑）</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="293" />
        <source>Document {n}</source>
        <translation>文档 {n}</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="295" />
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="297" />
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="298" />
        <source>Export JSON…</source>
        <translation>导出 JSON…</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="299" />
        <source>Export HTML report…</source>
        <translation>导出 HTML 报告…</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="300" />
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="301" />
        <source>Open file</source>
        <translation>打开文件</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="302" />
        <source>Reveal in folder</source>
        <translation>在文件夹中显示</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="303" />
        <source>Copy path</source>
        <translation>复制路径</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="304" />
        <source>Show extracted text…</source>
        <translation>显示提取的文本…</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="305" />
        <source>Mark all but the original</source>
        <translation>标记除原件外的全部</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="306" />
        <source>Make original</source>
        <translation>设为原件</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="311" />
        <source>Move or copy checked to a folder…</source>
        <translation>将勾选的文件移动或复制到文件夹…</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="338" />
        <source>Partial copies (…)</source>
        <translation>部分抄袭（…）</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="339" />
        <source>Common text (…)</source>
        <translation>常见文本（…）</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="340" />
        <source>Documents (…)</source>
        <translation>文档（…）</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="526" />
        <source>Scanning… clusters appear as soon as the documents are compared.</source>
        <translation>正在扫描…文档比较完成后即显示重复组。</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="581" />
        <source>Cancelled while matching passages: the clusters are shown, partial copying was not finished. Scan again to finish it.</source>
        <translation>已在匹配段落时取消：重复组已显示，部分抄袭未匹配完。再次扫描即可完成。</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="635" />
        <source>Partial copying is still being matched: this tab fills when it ends. The clusters are ready now.</source>
        <translation>仍在匹配部分抄袭：完成后此标签页即会填充。重复组现已可用。</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="642" />
        <source>Partial copying was not finished: the scan was cancelled while matching passages. Scan again to finish it (files already read are not read again).</source>
        <translation>部分抄袭未匹配完：扫描在匹配段落时被取消。再次扫描即可完成（已读取的文件不会重新读取）。</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="841" />
        <source>Partial copying is still being matched: near pairs that share only template or common text leave the clusters when it ends.</source>
        <translation>仍在匹配部分抄袭：完成后，仅共有模板或常见文本的近似文档对将移出重复组。</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="845" />
        <source>Partial copying was not finished: scan again to finish it (near pairs that share only template or common text are still among the clusters).</source>
        <translation>部分抄袭未匹配完：再次扫描即可完成（仅共有模板或常见文本的近似文档对仍在重复组中）。</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="882" />
        <source>Undo exclude source</source>
        <translation>撤销排除来源</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="307" />
        <source>Unmark all</source>
        <translation>取消全部标记</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="308" />
        <source>Not a duplicate</source>
        <translation>不是重复</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="309" />
        <source>Verdict…</source>
        <translation>结论…</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="310" />
        <source>Move checked to trash…</source>
        <translation>将已勾选文件移到回收站…</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="313" />
        <source>User guide</source>
        <translation>使用指南</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="314" />
        <source>Anonymize names</source>
        <translation>匿名显示名称</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="322" />
        <source>Record your verdict on the selected pair or document: copying confirmed or not copying, with a note (kept across scans, exported with the results)</source>
        <translation>记录你对所选文档对或文档的结论：确认抄袭或不是抄袭，可附说明（跨扫描保留，随结果导出）</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="328" />
        <source>Remember that the selected pair is not a duplicate (select two files, or one and its original)</source>
        <translation>记住所选的一对文件不是重复（选择两个文件，或一个文件及其原件）</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="554" />
        <source>Re-weighted: %1 documents fingerprinted and compared again, no file read.</source>
        <translation>已重新加权：%1 篇文档重新计算指纹并比较，未重新读取文件。</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="717" />
        <source>Working on files: %1 of %2…</source>
        <translation>正在处理文件：%1 / %2…</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="814" />
        <source>The folder list changed since this scan: press Scan to update. </source>
        <translation>文件夹列表在这次扫描后已更改：请按“扫描”更新。</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="860" />
        <source>Reopening the last results…</source>
        <translation>正在重新打开上次的结果…</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="880" />
        <source>Undo not a duplicate</source>
        <translation>撤销“不是重复”</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="884" />
        <source>Undo move to trash</source>
        <translation>撤销移到回收站</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="886" />
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="312" />
        <location filename="../../app/main_window.py" line="1098" />
        <source>About SimSift</source>
        <translation>关于 SimSift</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="492" />
        <source>Add a folder to scan first (drop it on the list).</source>
        <translation>请先添加要扫描的文件夹（拖放到列表中）。</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="569" />
        <source>Done: %1 documents, %2 unchanged files taken from the catalog.</source>
        <translation>完成：%1 个文档，其中 %2 个未改动的文件取自缓存目录。</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="586" />
        <source>Cancelled. Files read so far are kept; the next scan continues from there.</source>
        <translation>已取消。已读取的文件会被保留，下次扫描将从此处继续。</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="595" />
        <source>Scan failed</source>
        <translation>扫描失败</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="810" />
        <source>Drop folders on the list at the left, then press Scan.</source>
        <translation>将文件夹拖放到左侧列表，然后点击“扫描”。</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="819" />
        <source>1 cluster with %2 files among %3 documents (k = %4).</source>
        <translation>%3 个文档中有 1 个重复组，共 %2 个文件（k = %4）。</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="821" />
        <source>%1 clusters with %2 files among %3 documents (k = %4).</source>
        <translation>%3 个文档中有 %1 个重复组，共 %2 个文件（k = %4）。</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="872" />
        <source>%1 documents compared; the other files read are reference documents or garbled.</source>
        <translation>已比对 %1 篇文档；其余已读取的文件是参考文档或乱码文本。</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="993" />
        <source>Move to trash</source>
        <translation>移到回收站</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="995" />
        <source>Move 1 checked file to the trash?</source>
        <translation>将 1 个已勾选文件移到回收站？</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="998" />
        <source>Move %1 checked files to the trash?</source>
        <translation>将 %1 个已勾选文件移到回收站？</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="1001" />
        <source>… and %1 more</source>
        <translation>……以及另外 %1 个</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="1031" />
        <source>Move or copy checked files to</source>
        <translation>将勾选的文件移动或复制到</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="1042" />
        <source>Export report into folder</source>
        <translation>将报告导出到文件夹</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="1052" />
        <source>Export HTML report</source>
        <translation>导出 HTML 报告</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="1054" />
        <source>HTML files (*.html)</source>
        <translation>HTML 文件 (*.html)</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="1099" />
        <source>SimSift finds near-duplicate and copied documents with SimHash fingerprints.</source>
        <translation>SimSift 使用 SimHash 指纹查找近似重复和抄袭的文档。</translation>
    </message>
</context>
<context>
    <name>Messages</name>
    <message>
        <location filename="../../app/messages.py" line="20" />
        <source>file too large (%1 MB)</source>
        <translation>文件过大（%1 MB）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="21" />
        <source>empty file</source>
        <translation>空文件</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="22" />
        <source>cannot read file (%1)</source>
        <translation>无法读取文件（%1）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="23" />
        <source>cannot open file (%1)</source>
        <translation>无法打开文件（%1）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="24" />
        <source>cannot open folder (%1)</source>
        <translation>无法打开文件夹（%1）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="25" />
        <source>not a valid ODT (corrupt or renamed file)</source>
        <translation>不是有效的 ODT（已损坏或被改名）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="26" />
        <source>ODT unpacks to %1 MB (possible zip bomb)</source>
        <translation>ODT 解压后达 %1 MB（可能是压缩炸弹）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="27" />
        <source>not a valid RTF document (corrupt or renamed file)</source>
        <translation>不是有效的 RTF 文档（已损坏或被改名）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="28" />
        <source>not a valid RTF document (%1)</source>
        <translation>不是有效的 RTF 文档（%1）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="29" />
        <source>not a valid DOCX (corrupt or renamed file)</source>
        <translation>不是有效的 DOCX（已损坏或被改名）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="30" />
        <source>not a valid PDF (corrupt or renamed file)</source>
        <translation>不是有效的 PDF（已损坏或被改名）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="31" />
        <source>not a valid PDF (corrupt or truncated)</source>
        <translation>不是有效的 PDF（已损坏或不完整）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="32" />
        <source>unsupported file type (%1)</source>
        <translation>不支持的文件类型（%1）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="33" />
        <source>password protected document</source>
        <translation>文档有密码保护</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="34" />
        <source>password protected PDF</source>
        <translation>PDF 有密码保护</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="35" />
        <source>old binary Office file (not a Word document)</source>
        <translation>旧版二进制 Office 文件（不是 Word 文档）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="36" />
        <source>no text</source>
        <translation>没有文本</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="37" />
        <source>no words found in the text</source>
        <translation>文本中没有找到词语</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="38" />
        <source>document is nested too deeply to read</source>
        <translation>文档嵌套过深，无法读取</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="39" />
        <source>took longer than %1 s to read; skipped</source>
        <translation>读取超过 %1 秒，已跳过</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="40" />
        <source>out of memory while reading this file</source>
        <translation>读取此文件时内存不足</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="41" />
        <source>too big to read in a reader's memory, or damaged (the reader crashed: %1)</source>
        <translation>文件太大，读取进程的内存放不下，或文件已损坏（读取进程崩溃：%1）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="42" />
        <source>reader crashed on this file (%1)</source>
        <translation>读取此文件时读取进程崩溃（%1）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="43" />
        <source>the %1 reader failed on this file: its content is damaged or of a kind SimSift does not read (%2)</source>
        <translation>%1 读取器无法读取此文件：内容已损坏，或属于 SimSift 不支持的类型（%2）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="44" />
        <source>needs more memory than a reader has (%1 GB); read again when the file changes</source>
        <translation>所需内存超过读取进程的上限（%1 GB）；文件改动后会重新读取</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="45" />
        <source>reader was killed (out of memory?)</source>
        <translation>读取进程被终止（内存不足？）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="46" />
        <source>DOCX unpacks to %1 MB (possible zip bomb)</source>
        <translation>DOCX 解压后达 %1 MB（可能是压缩炸弹）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="47" />
        <source>not a document type SimSift reads (%1)</source>
        <translation>不是 SimSift 读取的文档类型（%1）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="48" />
        <source>excluded by the pattern %1 (folder not searched)</source>
        <translation>被模式 %1 排除（未搜索此文件夹）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="49" />
        <source>excluded by the pattern %1</source>
        <translation>被模式 %1 排除</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="50" />
        <source>same file as %1 (a link)</source>
        <translation>与 %1 是同一文件（链接）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="51" />
        <source>not a regular file (device, pipe or socket)</source>
        <translation>不是普通文件（设备、管道或套接字）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="52" />
        <source>hidden file</source>
        <translation>隐藏文件</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="53" />
        <source>hidden folder (not searched)</source>
        <translation>隐藏文件夹（未搜索）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="54" />
        <source>system folder (not searched)</source>
        <translation>系统文件夹（未搜索）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="55" />
        <source>link to a folder (not followed)</source>
        <translation>指向文件夹的链接（未跟随）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="56" />
        <source>link to a file outside the scanned folders (not followed)</source>
        <translation>指向扫描文件夹之外文件的链接（未跟随）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="57" />
        <source>Word 97–2003 .doc file: save it as .docx (or install antiword or LibreOffice to read it)</source>
        <translation>Word 97–2003 .doc 文件：请另存为 .docx（或安装 antiword 或 LibreOffice 以读取）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="58" />
        <source>the PDF's fonts do not say which letters they show (no ToUnicode map); no text</source>
        <translation>PDF 的字体没有说明显示的是哪些字符（无 ToUnicode 映射）；没有文本</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="59" />
        <source>damaged font in the PDF (corrupt file); no text</source>
        <translation>PDF 中的字体已损坏（文件已损坏）；没有文本</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="60" />
        <source>1 character could not be decoded (shown as �): the text is garbled</source>
        <translation>1 个字符无法解码（显示为 �）：文本是乱码</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="61" />
        <source>1 character could not be decoded (shown as �)</source>
        <translation>1 个字符无法解码（显示为 �）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="62" />
        <source>%1 characters could not be decoded (shown as �): the text is garbled</source>
        <translation>%1 个字符无法解码（显示为 �）：文本是乱码</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="63" />
        <source>%1 characters could not be decoded (shown as �)</source>
        <translation>%1 个字符无法解码（显示为 �）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="64" />
        <source>the Chinese text looks garbled: its encoding was probably misread</source>
        <translation>中文文本看起来是乱码：编码可能被误读</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="65" />
        <source>the text contains garbled letters such as “Ã©” or “â€™” (wrong encoding)</source>
        <translation>文本含有“Ã©”或“â€™”这类乱码字母（编码错误）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="66" />
        <source>this file made a cluster worker fail (a crash, or over the time budget), twice</source>
        <translation>此文件两次导致集群工作进程失败（崩溃或超时）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="67" />
        <source>read by OCR: 1 page, mean confidence %1</source>
        <translation>由 OCR 读取：1 页，平均置信度 %1</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="68" />
        <source>read by OCR: %1 pages, mean confidence %2</source>
        <translation>由 OCR 读取：%1 页，平均置信度 %2</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="69" />
        <source>low confidence on page %1</source>
        <translation>第 %1 页置信度低</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="70" />
        <source>low confidence on pages %1</source>
        <translation>第 %1 页置信度低</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="71" />
        <source>scanned page %1 read by OCR: 1 page, mean confidence %2</source>
        <translation>扫描页 %1 由 OCR 读取：1 页，平均置信度 %2</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="72" />
        <source>scanned pages %1 read by OCR: %2 pages, mean confidence %3</source>
        <translation>扫描页 %1 由 OCR 读取：%2 页，平均置信度 %3</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="73" />
        <source>scanned page %1 not read</source>
        <translation>扫描页 %1 未读取</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="74" />
        <source>scanned pages %1 not read</source>
        <translation>扫描页 %1 未读取</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="75" />
        <source>scanned page %1 not read (%2)</source>
        <translation>扫描页 %1 未读取（%2）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="76" />
        <source>scanned pages %1 not read (%2)</source>
        <translation>扫描页 %1 未读取（%2）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="77" />
        <source>OCR is off</source>
        <translation>OCR 已关闭</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="78" />
        <source>OCR is not available: install Tesseract (tesseract-ocr) to read scanned PDFs</source>
        <translation>OCR 不可用：请安装 Tesseract（tesseract-ocr）以读取扫描的 PDF</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="79" />
        <source>no extractable text (scanned/image-only PDF?)</source>
        <translation>没有可提取的文字（扫描或纯图像 PDF？）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="80" />
        <source>no extractable text (scanned PDF of %1 pages: too long to read by OCR, at most %2 pages)</source>
        <translation>没有可提取的文字（%1 页的扫描 PDF：太长，无法用 OCR 读取，最多 %2 页）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="81" />
        <source>no extractable text (scanned PDF: OCR took longer than %1 s, %2 of %3 pages read)</source>
        <translation>没有可提取的文字（扫描的 PDF：OCR 超过 %1 秒，已读取 %3 页中的 %2 页）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="82" />
        <source>no extractable text (scanned PDF: OCR of one page took longer than %1 s)</source>
        <translation>没有可提取的文字（扫描的 PDF：一页的 OCR 超过 %1 秒）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="83" />
        <source>no extractable text (scanned PDF: %1)</source>
        <translation>没有可提取的文字（扫描的 PDF：%1）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="84" />
        <source>text of 1 picture read by OCR, mean confidence %1</source>
        <translation>1 张图片中的文字由 OCR 读取，平均置信度 %1</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="85" />
        <source>text of %1 pictures read by OCR, mean confidence %2</source>
        <translation>%1 张图片中的文字由 OCR 读取，平均置信度 %2</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="86" />
        <source>text of 1 picture not read</source>
        <translation>1 张图片中的文字未读取</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="87" />
        <source>text of %1 pictures not read</source>
        <translation>%1 张图片中的文字未读取</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="88" />
        <source>1 picture not read by OCR: larger than %1 megapixels</source>
        <translation>1 张图片未由 OCR 读取：超过 %1 百万像素</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="89" />
        <source>%1 pictures not read by OCR: larger than %2 megapixels</source>
        <translation>%1 张图片未由 OCR 读取：超过 %2 百万像素</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="90" />
        <source>pictures after the first %1 not read by OCR</source>
        <translation>前 %1 张之后的图片未由 OCR 读取</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="91" />
        <source>OCR of pictures stopped after %1 s: 1 picture not read</source>
        <translation>图片的 OCR 在 %1 秒后停止：1 张图片未读取</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="92" />
        <source>OCR of pictures stopped after %1 s: %2 pictures not read</source>
        <translation>图片的 OCR 在 %1 秒后停止：%2 张图片未读取</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="93" />
        <source>text of 1 picture not read (Tesseract was killed)</source>
        <translation>1 张图片中的文字未读取（Tesseract 被终止）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="94" />
        <source>text of %1 pictures not read (Tesseract was killed)</source>
        <translation>%1 张图片中的文字未读取（Tesseract 被终止）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="95" />
        <source>a picture: read only by OCR</source>
        <translation>图片：只能由 OCR 读取</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="96" />
        <source>a picture</source>
        <translation>图片</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="97" />
        <source>a picture SimSift cannot decode (or a TIFF of several pages)</source>
        <translation>SimSift 无法解码的图片（或多页 TIFF）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="98" />
        <source>a picture larger than %1 megapixels</source>
        <translation>超过 %1 百万像素的图片</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="99" />
        <source>a picture too small to hold text</source>
        <translation>图片太小，不可能含有文字</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="100" />
        <source>a picture without text (read by OCR)</source>
        <translation>没有文字的图片（已由 OCR 读取）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="101" />
        <source>read by OCR: 1 picture, mean confidence %1</source>
        <translation>由 OCR 读取：1 张图片，平均置信度 %1</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="103" />
        <source>hidden text: %1 words the file does not show, in 1 place, e.g. “%2”</source>
        <translation>隐藏文字：文件中有 %1 个词不显示，共 1 处，例如“%2”</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="104" />
        <source>hidden text: %1 words the file does not show, in %2 places, e.g. “%3”</source>
        <translation>隐藏文字：文件中有 %1 个词不显示，共 %2 处，例如“%3”</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="105" />
        <source>look-alike letters: %1 %2 letters in %3 Latin words (%4), e.g. “%5”</source>
        <translation>形近字母：%3 个拉丁字母单词中混有 %1 个 %2 字母（%4），例如“%5”</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="106" />
        <source>invisible characters: %1 (%2) between the letters of words in %3 places, e.g. “%4” (· marks one)</source>
        <translation>不可见字符：%1 个（%2）夹在单词的字母之间，共 %3 处，例如“%4”（· 表示一个）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="107" />
        <source>letters spaced out: %1 letters written one by one with spaces between, in %2 places, e.g. “%3”</source>
        <translation>字母被空格隔开：%1 个字母逐个书写、中间夹有空格，共 %2 处，例如“%3”</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="108" />
        <source>spaces replaced: %1 of %2 spaces between words are other blanks (%3)</source>
        <translation>空格被替换：单词之间的 %2 个空格中有 %1 个是其他空白字符（%3）</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="109" />
        <source>stray quotation marks: %1 open no quotation, so the text after them counts as the writer's own, e.g. “%2…”</source>
        <translation>多余的引号：%1 个引号没有引出任何引文，因此其后的文字算作作者自己的文字，例如“%2…”</translation>
    </message>
    <message>
        <location filename="../../app/messages.py" line="110" />
        <source>mostly quoted: %1% of the text is in quotation marks</source>
        <translation>大部分为引文：%1% 的文字在引号中</translation>
    </message>
</context>
<context>
    <name>OverviewPanel</name>
    <message>
        <location filename="../../app/panels/overview.py" line="279" />
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <location filename="../../app/panels/overview.py" line="282" />
        <source>How similar the documents are, which to read first, who shares text</source>
        <translation>文档的相似程度、应先读哪些、谁与谁共有文本</translation>
    </message>
    <message>
        <location filename="../../app/panels/overview.py" line="285" />
        <source>Document</source>
        <translation>文档</translation>
    </message>
    <message>
        <location filename="../../app/panels/overview.py" line="285" />
        <source>Similarity index</source>
        <translation>相似度指数</translation>
    </message>
    <message>
        <location filename="../../app/panels/overview.py" line="286" />
        <source>Read these first:</source>
        <translation>请先阅读：</translation>
    </message>
    <message>
        <location filename="../../app/panels/overview.py" line="292" />
        <source>Scan a folder to see how similar its documents are.</source>
        <translation>扫描一个文件夹，查看其中文档的相似程度。</translation>
    </message>
    <message>
        <location filename="../../app/panels/overview.py" line="300" />
        <source>partial-copy threshold %1</source>
        <translation>部分抄袭阈值 %1</translation>
    </message>
    <message>
        <location filename="../../app/panels/overview.py" line="308" />
        <source>Highest similarity index: %1 (%2) · median %3 over %4 documents</source>
        <translation>最高相似度指数：%1（%2）· %4 篇文档的中位数 %3</translation>
    </message>
    <message>
        <location filename="../../app/panels/overview.py" line="316" />
        <source>No documents share text.</source>
        <translation>没有文档共有文本。</translation>
    </message>
    <message>
        <location filename="../../app/panels/overview.py" line="318" />
        <source>%1 documents in one group are linked</source>
        <translation>%1 篇文档同属一组，</translation>
    </message>
    <message>
        <location filename="../../app/panels/overview.py" line="320" />
        <source>%1 documents in %2 groups are linked</source>
        <translation>%1 篇文档分属 %2 组，</translation>
    </message>
    <message>
        <location filename="../../app/panels/overview.py" line="323" />
        <source>by near duplicates within k or partial copies. Click a document to open it, a line to compare the two.</source>
        <translation>由 k 以内的近似重复或部分抄袭相连。点击文档可打开，点击连线可并排比较两篇。</translation>
    </message>
    <message>
        <location filename="../../app/panels/overview.py" line="328" />
        <source>%1 more are left out of the drawing.</source>
        <translation>另有 %1 篇未画出。</translation>
    </message>
</context>
<context>
    <name>ParamsPanel</name>
    <message>
        <location filename="../../app/panels/params.py" line="168" />
        <source>Distance k (0 = identical fingerprints)</source>
        <translation>距离 k（0 = 指纹完全相同）</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="169" />
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="170" />
        <source>What counts as copying</source>
        <translation>哪些算作抄袭</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="171" />
        <source>Title boost</source>
        <translation>标题加权</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="171" />
        <source>Term frequency</source>
        <translation>词频方式</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="171" />
        <source>Shingle size</source>
        <translation>词组长度</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="176" />
        <source>Common text above</source>
        <translation>常见文本阈值</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="176" />
        <source>Shortest match</source>
        <translation>最短匹配</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="181" />
        <source>raw count</source>
        <translation>原始计数</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="181" />
        <source>logarithmic</source>
        <translation>对数</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="181" />
        <source>binary</source>
        <translation>二值</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="183" />
        <source>Inverse document frequency (idf)</source>
        <translation>逆文档频率（idf）</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="184" />
        <source>Ignore digits (dates, counters)</source>
        <translation>忽略数字（日期、计数器）</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="185" />
        <source>Remove stopwords</source>
        <translation>去除停用词</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="186" />
        <source>Term</source>
        <translation>词语</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="186" />
        <source>Weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="188" />
        <source>Weight 0 removes a template word; above 1 boosts a topic word</source>
        <translation>权重 0 去除模板词；大于 1 则加强主题词</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="230" />
        <source>Not available while an archive folder is in the list: the archive keeps fingerprints made without idf, so the other folders are checked the same way</source>
        <translation>列表中有存档文件夹时不可用：存档保存的是不含 idf 的指纹，因此其他文件夹也以同样方式检查</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="235" />
        <source> words</source>
        <translation> 个词</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="236" />
        <source> documents</source>
        <translation> 篇文档</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="237" />
        <source>Count quotations as copying</source>
        <translation>引文计为抄袭</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="238" />
        <source>Count the bibliography as copying</source>
        <translation>参考文献计为抄袭</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="239" />
        <source>Paraphrased passages</source>
        <translation>改写的段落</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="240" />
        <source>Translated passages (Chinese ↔ English)</source>
        <translation>翻译的段落（中文 ↔ 英文）</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="242" />
        <source>Shared runs of fewer words than this never count as copying. Two documents sharing a run of this many words or more (Chinese: words as segmented) are a partial copy, however small a share of either it is. Lower finds shorter borrowed phrases, and more coincidences.</source>
        <translation>共有的连续词语少于此数时，一律不计为抄袭。两篇文档共有连续达到此数（中文按分词计）或更多的词语时，即为部分抄袭，无论其占比多小。数值越低，越能发现较短的借用语句，巧合也越多。</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="248" />
        <source>Passages found in more documents than this (licences, boilerplate, a shared prompt) are common text and never count as copying</source>
        <translation>出现在超过此数量文档中的段落（许可证、样板文字、共同的题目）视为常见文本，不计为抄袭</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="252" />
        <source>Text in quotation marks (“…”, "…", «…», 「…」, 『…』) and paragraphs that are one quotation (block quotes) are shown, but not counted as copying unless this is checked</source>
        <translation>引号内的文字（“…”、"…"、«…»、「…」、『…』）以及整段引文（块引用）会显示，但除非勾选此项，否则不计为抄袭</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="257" />
        <source>The references section (a heading such as References, Bibliography, Works cited or 参考文献, followed by a list of references, to the end of the essay or an appendix) is shown, but not counted as copying unless this is checked</source>
        <translation>参考文献部分（以“参考文献”、References、Bibliography、Works cited 等标题开头、其后为文献列表，直到文末或附录）会显示，但除非勾选此项，否则不计为抄袭</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="262" />
        <source>Such a match is evidence for a person to read, not proof: compare the two passages side by side before deciding.</source>
        <translation>这样的匹配是供人阅读的证据，而非定论：请先并排比较两段文字再作判断。</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="266" />
        <source>Also find passages whose words were changed (synonyms, reordered clauses) but whose sentences say the same as another document's, shown apart from word-for-word copying. Off by default: in an archive of related documents most of what it finds is documents saying similar things; turn it on for a class.</source>
        <translation>同时查找措辞被改动（同义词替换、分句调序）但句意与另一篇文档相同的段落，与逐字抄袭分开显示。默认关闭：在相关文档组成的档案中，找到的多是内容相近的文档；检查一个班的作文时请打开。</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="272" />
        <source>Also find passages of a Chinese document that translate an English one, or the reverse, shown apart from word-for-word copying.</source>
        <translation>同时查找中文文档中译自英文文档的段落（或反之），与逐字抄袭分开显示。</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="190" />
        <source>Add term</source>
        <translation>添加词语</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="191" />
        <source>Remove term</source>
        <translation>删除词语</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="194" />
        <source>Hamming distance: in how many of the 64 bits two documents' fingerprints may differ and still be near duplicates. 0: the same words; 8 (default): light edits and re-posts; above 10 unrelated texts on one topic start to pair.</source>
        <translation>汉明距离：两篇文档的 64 位指纹最多可有多少位不同仍算近似重复。0：用词相同；8（默认）：轻度改写与转载；超过 10 时，同一主题的不同文章开始配对。</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="201" />
        <source>How much more a word of the title counts than a word of the body (1: the same)</source>
        <translation>标题中的词比正文中的词重要多少（1：相同）</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="204" />
        <source>How a word repeated in a document counts: each time (raw count), less and less (logarithmic), or once (binary)</source>
        <translation>文档中重复出现的词如何计数：每次都计（原始计数）、递减（对数）或只计一次（二值）</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="208" />
        <source>Words per feature: 1 compares vocabularies; 2 or more also word order (stricter; reordered copies then differ more)</source>
        <translation>每个特征包含的词数：1 只比较用词；2 或以上也比较词序（更严格；调换顺序的抄袭差别会更大）</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="226" />
        <source>Weigh words by how rare they are across the scanned documents: common words count less (every fingerprint then depends on the whole folder)</source>
        <translation>按词在所扫描文档中的罕见程度加权：常见词权重更低（此时每个指纹都取决于整个文件夹）</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="213" />
        <source>Leave numbers out of the fingerprints, so dates, counters and page numbers do not make copies look different</source>
        <translation>指纹中不计数字，使日期、计数器和页码不会让抄袭显得不同</translation>
    </message>
    <message>
        <location filename="../../app/panels/params.py" line="217" />
        <source>Leave out words like 'the', 'and', '的', '了' that every text uses</source>
        <translation>不计“the”“and”“的”“了”这类每篇文本都用的词</translation>
    </message>
</context>
<context>
    <name>PartialModel</name>
    <message>
        <location filename="../../app/models/partial.py" line="162" />
        <source>Document A</source>
        <translation>文档 A</translation>
    </message>
    <message>
        <location filename="../../app/models/partial.py" line="163" />
        <source>Folder A</source>
        <translation>文件夹 A</translation>
    </message>
    <message>
        <location filename="../../app/models/partial.py" line="164" />
        <source>Document B</source>
        <translation>文档 B</translation>
    </message>
    <message>
        <location filename="../../app/models/partial.py" line="165" />
        <source>Folder B</source>
        <translation>文件夹 B</translation>
    </message>
    <message>
        <location filename="../../app/models/partial.py" line="166" />
        <source>A in B</source>
        <translation>A 在 B 中</translation>
    </message>
    <message>
        <location filename="../../app/models/partial.py" line="167" />
        <source>B in A</source>
        <translation>B 在 A 中</translation>
    </message>
    <message>
        <location filename="../../app/models/partial.py" line="168" />
        <source>Overlap</source>
        <translation>重合度</translation>
    </message>
    <message>
        <location filename="../../app/models/partial.py" line="169" />
        <source>In a row</source>
        <translation>连续相同</translation>
    </message>
    <message>
        <location filename="../../app/models/partial.py" line="171" />
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <location filename="../../app/models/partial.py" line="172" />
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../app/models/partial.py" line="179" />
        <source>Containment of A in B: share of A's own text inside passages also in B (for a pair found by meaning only, the share found by meaning)</source>
        <translation>A 在 B 中的包含度：A 自身文本中落在 B 也有的段落里的比例（仅按意思发现的文档对：按意思发现的比例）</translation>
    </message>
    <message>
        <location filename="../../app/models/partial.py" line="184" />
        <source>Containment of B in A: share of B's own text inside passages also in A (for a pair found by meaning only, the share found by meaning)</source>
        <translation>B 在 A 中的包含度：B 自身文本中落在 A 也有的段落里的比例（仅按意思发现的文档对：按意思发现的比例）</translation>
    </message>
    <message>
        <location filename="../../app/models/partial.py" line="189" />
        <source>What the pair shares: verbatim (word for word), paraphrased (the same sentences in other words) or translated (Chinese ↔ English). Paraphrased and translated passages are evidence to read side by side, not proof</source>
        <translation>两篇文档共有的内容：逐字（一字不差）、改写（用别的话说同样的句子）或翻译（中文 ↔ 英文）。改写和翻译的段落是供并排阅读的证据，而非定论</translation>
    </message>
    <message>
        <location filename="../../app/models/partial.py" line="260" />
        <source>paraphrased</source>
        <translation>改写</translation>
    </message>
    <message>
        <location filename="../../app/models/partial.py" line="261" />
        <source>translated</source>
        <translation>翻译</translation>
    </message>
    <message>
        <location filename="../../app/models/partial.py" line="268" />
        <source>verbatim</source>
        <translation>逐字</translation>
    </message>
    <message>
        <location filename="../../app/models/partial.py" line="269" />
        <source>verbatim, %1 too</source>
        <translation>逐字，另有%1</translation>
    </message>
    <message>
        <location filename="../../app/models/partial.py" line="280" />
        <source>Found by meaning (%1): %2 of A's own text and %3 of B's. The words differ: evidence to read side by side, not proof.</source>
        <translation>按意思发现（%1）：占 A 自身文本的 %2，占 B 的 %3。措辞不同：供并排阅读的证据，而非定论。</translation>
    </message>
    <message>
        <location filename="../../app/models/partial.py" line="194" />
        <source>Overlap: both documents' text inside shared passages, over both texts</source>
        <translation>重合度：两篇文档落在共有段落中的文本占两篇全文的比例</translation>
    </message>
    <message>
        <location filename="../../app/models/partial.py" line="197" />
        <source>Words in a row: the longest run of words both share verbatim (template and common text left out); 15 or more make a partial copy whatever the share</source>
        <translation>连续相同的词：两篇共有的最长逐字相同的一段（不计模板和常见文字）；达到 15 个词即算部分抄袭，不论占比</translation>
    </message>
    <message>
        <location filename="../../app/models/partial.py" line="201" />
        <source>Hamming distance: bits in which the two 64-bit fingerprints differ</source>
        <translation>汉明距离：两个 64 位指纹不同的位数</translation>
    </message>
    <message>
        <location filename="../../app/models/partial.py" line="203" />
        <source>Your verdict on the pair (Edit ▸ Verdict…)</source>
        <translation>你对此对文档的结论（编辑 ▸ 结论…）</translation>
    </message>
    <message>
        <location filename="../../app/models/partial.py" line="170" />
        <source>Distance</source>
        <translation>距离</translation>
    </message>
</context>
<context>
    <name>PartialPanel</name>
    <message>
        <location filename="../../app/panels/partial.py" line="68" />
        <source>Filter by file name or folder…</source>
        <translation>按文件名或文件夹筛选…</translation>
    </message>
    <message>
        <location filename="../../app/panels/partial.py" line="71" />
        <source>Partial copies (%1)</source>
        <translation>部分抄袭（%1）</translation>
    </message>
    <message>
        <location filename="../../app/panels/partial.py" line="74" />
        <source>Pairs sharing passages that Clusters does not already show (beyond k)</source>
        <translation>共享段落、且未在重复组中显示的文档对（距离超过 k）</translation>
    </message>
</context>
<context>
    <name>ProblemsModel</name>
    <message>
        <location filename="../../app/models/problems.py" line="65" />
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../../app/models/problems.py" line="65" />
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location filename="../../app/models/problems.py" line="65" />
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../app/models/problems.py" line="65" />
        <source>Problem</source>
        <translation>问题</translation>
    </message>
    <message>
        <location filename="../../app/models/problems.py" line="89" />
        <source>Not read</source>
        <translation>未读取</translation>
    </message>
    <message>
        <location filename="../../app/models/problems.py" line="91" />
        <source>Read, with a warning</source>
        <translation>已读取，有警告</translation>
    </message>
    <message>
        <location filename="../../app/models/problems.py" line="93" />
        <source>Garbled, not compared</source>
        <translation>乱码，未比较</translation>
    </message>
    <message>
        <location filename="../../app/models/problems.py" line="94" />
        <source>Skipped</source>
        <translation>已跳过</translation>
    </message>
</context>
<context>
    <name>ProblemsPanel</name>
    <message>
        <location filename="../../app/panels/problems.py" line="51" />
        <source>Problems (%1)</source>
        <translation>问题（%1）</translation>
    </message>
    <message>
        <location filename="../../app/panels/problems.py" line="66" />
        <source>Read %1 files · %2 not read · %3 with warnings · %4 skipped.</source>
        <translation>已读取 %1 个文件 · %2 个未读取 · %3 个有警告 · %4 个已跳过。</translation>
    </message>
    <message>
        <location filename="../../app/panels/problems.py" line="74" />
        <source>1 file in the archive folders could not be added to the archive.</source>
        <translation>存档文件夹中有 1 个文件未能加入存档。</translation>
    </message>
    <message>
        <location filename="../../app/panels/problems.py" line="78" />
        <source>%1 files in the archive folders could not be added to the archive.</source>
        <translation>存档文件夹中有 %1 个文件未能加入存档。</translation>
    </message>
</context>
<context>
    <name>ResultEditor</name>
    <message>
        <location filename="../../app/result_editor.py" line="152" />
        <location filename="../../app/result_editor.py" line="190" />
        <source>Not remembered</source>
        <translation>未能记住</translation>
    </message>
    <message>
        <location filename="../../app/result_editor.py" line="160" />
        <source>Source excluded: the text the two documents share no longer counts, for either. Include again, or Edit ▸ Undo, brings it back.</source>
        <translation>已排除来源：两篇文档的共有文本对双方都不再计入。“重新计入”或“编辑 ▸ 撤销”可恢复。</translation>
    </message>
    <message>
        <location filename="../../app/result_editor.py" line="166" />
        <source>Pair marked as not a duplicate. Edit ▸ Undo brings it back.</source>
        <translation>已将此对标记为不是重复。可用“编辑 ▸ 撤销”恢复。</translation>
    </message>
    <message>
        <location filename="../../app/result_editor.py" line="179" />
        <location filename="../../app/result_editor.py" line="339" />
        <source>Source included again: it counts as before.</source>
        <translation>已重新计入来源：与之前一样计入。</translation>
    </message>
    <message>
        <location filename="../../app/result_editor.py" line="257" />
        <source>Verdict not remembered</source>
        <translation>结论未能保存</translation>
    </message>
    <message>
        <location filename="../../app/result_editor.py" line="287" />
        <source>Moved 1 file to the trash.</source>
        <translation>已将 1 个文件移到回收站。</translation>
    </message>
    <message>
        <location filename="../../app/result_editor.py" line="288" />
        <source>Moved %1 files to the trash.</source>
        <translation>已将 %1 个文件移到回收站。</translation>
    </message>
    <message>
        <location filename="../../app/result_editor.py" line="291" />
        <source>Edit ▸ Undo puts them back.</source>
        <translation>可用“编辑 ▸ 撤销”放回。</translation>
    </message>
    <message>
        <location filename="../../app/result_editor.py" line="293" />
        <location filename="../../app/result_editor.py" line="314" />
        <source>Some files were not moved</source>
        <translation>部分文件未能移动</translation>
    </message>
    <message>
        <location filename="../../app/result_editor.py" line="313" />
        <source>Moved 1 file to %2.</source>
        <translation>已将 1 个文件移动到 %2。</translation>
    </message>
    <message>
        <location filename="../../app/result_editor.py" line="313" />
        <source>Moved %1 files to %2.</source>
        <translation>已将 %1 个文件移动到 %2。</translation>
    </message>
    <message>
        <location filename="../../app/result_editor.py" line="316" />
        <source>Copied 1 file to %2.</source>
        <translation>已将 1 个文件复制到 %2。</translation>
    </message>
    <message>
        <location filename="../../app/result_editor.py" line="316" />
        <source>Copied %1 files to %2.</source>
        <translation>已将 %1 个文件复制到 %2。</translation>
    </message>
    <message>
        <location filename="../../app/result_editor.py" line="317" />
        <source>Some files were not copied</source>
        <translation>部分文件未能复制</translation>
    </message>
    <message>
        <location filename="../../app/result_editor.py" line="341" />
        <source>The pair is shown again.</source>
        <translation>此对已重新显示。</translation>
    </message>
    <message>
        <location filename="../../app/result_editor.py" line="352" />
        <source>Put 1 file back from the trash.</source>
        <translation>已从回收站放回 1 个文件。</translation>
    </message>
    <message>
        <location filename="../../app/result_editor.py" line="353" />
        <source>Put %1 files back from the trash.</source>
        <translation>已从回收站放回 %1 个文件。</translation>
    </message>
    <message>
        <location filename="../../app/result_editor.py" line="356" />
        <source>Some files were not put back</source>
        <translation>部分文件未能放回</translation>
    </message>
    <message>
        <location filename="../../app/result_editor.py" line="375" />
        <location filename="../../app/result_editor.py" line="399" />
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <location filename="../../app/result_editor.py" line="403" />
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <location filename="../../app/result_editor.py" line="414" />
        <source>Could not finish</source>
        <translation>未能完成</translation>
    </message>
</context>
<context>
    <name>ScanStatus</name>
    <message>
        <location filename="../../app/panels/scan_status.py" line="42" />
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../app/panels/scan_status.py" line="80" />
        <source>%1 (OCR: page %2 of %3)</source>
        <translation>%1（OCR：第 %2 页，共 %3 页）</translation>
    </message>
    <message>
        <location filename="../../app/panels/scan_status.py" line="93" />
        <source>%1: %2%</source>
        <translation>%1：%2%</translation>
    </message>
    <message>
        <location filename="../../app/panels/scan_status.py" line="96" />
        <source>%1: %2 of %3</source>
        <translation>%1：%2 / %3</translation>
    </message>
    <message>
        <location filename="../../app/panels/scan_status.py" line="101" />
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../../app/panels/scan_status.py" line="105" />
        <source>Finding files</source>
        <translation>查找文件</translation>
    </message>
    <message>
        <location filename="../../app/panels/scan_status.py" line="106" />
        <source>Reading</source>
        <translation>读取</translation>
    </message>
    <message>
        <location filename="../../app/panels/scan_status.py" line="107" />
        <source>Fingerprinting</source>
        <translation>计算指纹</translation>
    </message>
    <message>
        <location filename="../../app/panels/scan_status.py" line="108" />
        <source>Comparing</source>
        <translation>比较</translation>
    </message>
    <message>
        <location filename="../../app/panels/scan_status.py" line="109" />
        <source>Matching passages</source>
        <translation>匹配段落</translation>
    </message>
    <message>
        <location filename="../../app/panels/scan_status.py" line="110" />
        <source>Reading sentences for meaning</source>
        <translation>正在读取句子（按意思比对）</translation>
    </message>
    <message>
        <location filename="../../app/panels/scan_status.py" line="111" />
        <source>Finding copies by meaning</source>
        <translation>正在按意思查找抄袭</translation>
    </message>
    <message>
        <location filename="../../app/panels/scan_status.py" line="112" />
        <source>Adding to the archive</source>
        <translation>加入存档</translation>
    </message>
    <message>
        <location filename="../../app/panels/scan_status.py" line="113" />
        <source>Indexing the archive</source>
        <translation>索引存档</translation>
    </message>
    <message>
        <location filename="../../app/panels/scan_status.py" line="114" />
        <source>Checking against the archive</source>
        <translation>与存档比对</translation>
    </message>
    <message>
        <location filename="../../app/panels/scan_status.py" line="123" />
        <source>%1 files/s</source>
        <translation>%1 个文件/秒</translation>
    </message>
    <message>
        <location filename="../../app/panels/scan_status.py" line="125" />
        <source>%1 left</source>
        <translation>剩余 %1</translation>
    </message>
</context>
<context>
    <name>Verdict</name>
    <message>
        <location filename="../../app/dialogs/verdict.py" line="31" />
        <source>copying confirmed</source>
        <translation>确认抄袭</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/verdict.py" line="32" />
        <source>not copying</source>
        <translation>不是抄袭</translation>
    </message>
</context>
<context>
    <name>VerdictDialog</name>
    <message>
        <location filename="../../app/dialogs/verdict.py" line="77" />
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/verdict.py" line="81" />
        <source>Copying confirmed</source>
        <translation>确认抄袭</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/verdict.py" line="82" />
        <source>Not copying</source>
        <translation>不是抄袭</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/verdict.py" line="83" />
        <source>No verdict</source>
        <translation>无结论</translation>
    </message>
    <message>
        <location filename="../../app/dialogs/verdict.py" line="92" />
        <source>A short note (why), kept with the verdict</source>
        <translation>简短说明（原因），与结论一同保存</translation>
    </message>
</context>
<context>
    <name>WelcomePage</name>
    <message>
        <location filename="../../app/panels/welcome.py" line="108" />
        <source>Find documents that copy from each other</source>
        <translation>找出相互抄袭的文档</translation>
    </message>
    <message>
        <location filename="../../app/panels/welcome.py" line="109" />
        <source>Drop folders here</source>
        <translation>将文件夹拖放到此处</translation>
    </message>
    <message>
        <location filename="../../app/panels/welcome.py" line="110" />
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <location filename="../../app/panels/welcome.py" line="112" />
        <source>1. Drop the folders to check here or on the list at the left.</source>
        <translation>1. 将要检查的文件夹拖放到此处或左侧列表中。</translation>
    </message>
    <message>
        <location filename="../../app/panels/welcome.py" line="114" />
        <source>2. Tick a folder's box to make it a reference folder: the assignment prompt, handouts, the course reading. Text also found there is template text: shown, never counted as copying.</source>
        <translation>2. 勾选文件夹即设为参考文件夹：作业题目、讲义、课程阅读材料。其中也出现的文字属于模板文本：会显示，但从不计为抄袭。</translation>
    </message>
    <message>
        <location filename="../../app/panels/welcome.py" line="119" />
        <source>3. Right-click a folder and choose Archive for previous years' documents: they are indexed once, and the other folders are checked against them.</source>
        <translation>3. 右键单击文件夹并选择“存档”以存放往年文档：只建一次索引，其他文件夹将与之比对。</translation>
    </message>
    <message>
        <location filename="../../app/panels/welcome.py" line="122" />
        <source>4. Press Scan.</source>
        <translation>4. 点击“扫描”。</translation>
    </message>
    <message>
        <location filename="../../app/panels/welcome.py" line="126" />
        <source>What do you check? (the tab that opens first)</source>
        <translation>您要检查什么？（决定优先打开的标签页）</translation>
    </message>
    <message>
        <location filename="../../app/panels/welcome.py" line="127" />
        <source>Students' essays (teacher)</source>
        <translation>学生作文（教师）</translation>
    </message>
    <message>
        <location filename="../../app/panels/welcome.py" line="130" />
        <source>Documents opens first: every essay with its similarity index and the documents its text was found in.</source>
        <translation>优先打开“文档”：每篇作文及其相似度指数，以及其文字出现在哪些文档中。</translation>
    </message>
    <message>
        <location filename="../../app/panels/welcome.py" line="134" />
        <source>Files and drafts (editor)</source>
        <translation>文件和草稿（编辑）</translation>
    </message>
    <message>
        <location filename="../../app/panels/welcome.py" line="137" />
        <source>Clusters opens first: near-duplicate files grouped under their original, to keep one and move the copies to the trash.</source>
        <translation>优先打开“重复组”：近似重复的文件归在原件之下，保留一份，将副本移到回收站。</translation>
    </message>
    <message>
        <location filename="../../app/panels/welcome.py" line="141" />
        <source>The tabs</source>
        <translation>各标签页</translation>
    </message>
    <message>
        <location filename="../../app/panels/welcome.py" line="144" />
        <source>Documents</source>
        <translation>文档</translation>
    </message>
    <message>
        <location filename="../../app/panels/welcome.py" line="146" />
        <source>The teacher's list: each document found in part in others, its similarity index and sources. Select one to read its text coloured by source, and save its report.</source>
        <translation>教师用的列表：每篇部分内容见于其他文档的文档，及其相似度指数和来源。选中一篇即可阅读按来源着色的正文并保存报告。</translation>
    </message>
    <message>
        <location filename="../../app/panels/welcome.py" line="152" />
        <source>Clusters</source>
        <translation>重复组</translation>
    </message>
    <message>
        <location filename="../../app/panels/welcome.py" line="154" />
        <source>The editor's list: near-duplicate files grouped under their original, to mark the copies and move them to the trash.</source>
        <translation>编辑用的列表：近似重复的文件归在原件之下，可标记副本并移到回收站。</translation>
    </message>
    <message>
        <location filename="../../app/panels/welcome.py" line="159" />
        <source>Partial copies</source>
        <translation>部分抄袭</translation>
    </message>
    <message>
        <location filename="../../app/panels/welcome.py" line="160" />
        <source>Pairs of documents sharing passages that Clusters does not show.</source>
        <translation>共享段落、但未在“重复组”中显示的文档对。</translation>
    </message>
    <message>
        <location filename="../../app/panels/welcome.py" line="163" />
        <source>Common text</source>
        <translation>常见文本</translation>
    </message>
    <message>
        <location filename="../../app/panels/welcome.py" line="165" />
        <source>Passages found in many documents (a shared prompt, boilerplate): not counted as copying.</source>
        <translation>出现在许多文档中的段落（共同的题目、套话）：不计为抄袭。</translation>
    </message>
    <message>
        <location filename="../../app/panels/welcome.py" line="170" />
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <location filename="../../app/panels/welcome.py" line="171" />
        <source>How similar the documents are, which to read first, who shares text.</source>
        <translation>文档的相似程度、应先读哪些、谁与谁共享文字。</translation>
    </message>
    <message>
        <location filename="../../app/panels/welcome.py" line="174" />
        <source>Problems</source>
        <translation>问题</translation>
    </message>
    <message>
        <location filename="../../app/panels/welcome.py" line="175" />
        <source>Files that could not be read, or were read with a warning.</source>
        <translation>无法读取或读取时有警告的文件。</translation>
    </message>
    <message>
        <location filename="../../app/panels/welcome.py" line="184" />
        <source>Select a pair in any tab to see the two documents side by side below.</source>
        <translation>在任一标签页中选择一对文档，即可在下方并排查看。</translation>
    </message>
</context>
</TS>