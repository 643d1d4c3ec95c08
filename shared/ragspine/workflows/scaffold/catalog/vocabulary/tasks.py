"""Ten tasks, each with localized title and summary patterns and an English prompt.

``{d}`` in a title is the domain name, ``{s}`` in a summary the domain's subject.
The order is the generator's order: changing it changes ``descriptors.jsonl``.
"""

from __future__ import annotations

from ragspine.workflows.scaffold.catalog.model import Localized as L
from ragspine.workflows.scaffold.catalog.model import RecipeInput
from ragspine.workflows.scaffold.catalog.vocabulary.terms import Task

_TEXT = RecipeInput("text", "paragraph", True, L("文本", "Text", "テキスト"))
_TARGET_LANGUAGE = L("目标语言", "Target language", "翻訳先の言語")
_CATEGORIES = L("类别（逗号分隔）", "Categories (comma-separated)", "カテゴリ（カンマ区切り）")
_LANGUAGES = ("English", "简体中文", "繁體中文", "日本語", "한국어", "Français", "Deutsch")


def _optional(variable: str, label: L, kind: str = "text-input", options: tuple[str, ...] = ()) -> RecipeInput:
    return RecipeInput(variable, kind, False, label, options)


TASKS: tuple[Task, ...] = (
    Task(
        "summarize", L("{d}摘要助手", "{d} Summarizer", "{d}要約アシスタント"),
        L("对{s}进行摘要，提炼要点", "Summarizes {s}, keeping the key facts", "{s}を要約し、要点をまとめます"),
        ("summarize", "summary", "digest", "摘要", "总结", "概括", "要約", "まとめ", "サマリー"),
        "Summarize the text. Keep names, figures and dates exact; add no facts.",
        (_TEXT,), "{{text}}", "summary", ("summary", "key_points"),
    ),
    Task(
        "translate", L("{d}翻译助手", "{d} Translator", "{d}翻訳アシスタント"),
        L("将{s}翻译为指定语言，保留术语与格式",
          "Translates {s} into a chosen language, preserving terminology and layout",
          "{s}を指定した言語に翻訳し、用語と書式を保ちます"),
        ("translate", "translation", "localization", "翻译", "译文", "本地化", "翻訳", "ローカライズ"),
        "Translate the text into the target language, keeping terms, numbers and layout. Output only the translation.",
        (_TEXT, RecipeInput("target_language", "select", True, _TARGET_LANGUAGE, _LANGUAGES)),
        "Target language: {{target_language}}\n\n{{text}}", "translation", ("translation", "notes"),
    ),
    Task(
        "classify", L("{d}分类助手", "{d} Classifier", "{d}分類アシスタント"),
        L("对{s}进行分类并说明理由", "Classifies {s} into categories and explains the choice",
          "{s}をカテゴリに分類し、理由を示します"),
        ("classify", "categorize", "label", "triage", "routing", "分类", "归类", "分流", "分類", "振り分け", "仕分け"),
        "Assign the text to one of the given categories (or propose one) and give a one-line reason.",
        (_TEXT, _optional("categories", _CATEGORIES)),
        "Categories: {{categories}}\n\n{{text}}", "label", ("category", "reason"),
    ),
    Task(
        "extract", L("{d}信息抽取助手", "{d} Information Extractor", "{d}情報抽出アシスタント"),
        L("从{s}中抽取关键信息与字段", "Extracts key fields and facts from {s}", "{s}から重要な項目と情報を抽出します"),
        ("extract", "extraction", "parse", "fields", "entities", "抽取", "提取", "字段", "抽出", "項目"),
        "Extract the requested fields from the text. Copy values exactly; use null when a value is not stated.",
        (_TEXT, _optional("fields", L("需要抽取的字段", "Fields to extract", "抽出する項目"))),
        "Fields: {{fields}}\n\n{{text}}", "fields", ("fields", "missing"),
    ),
    Task(
        "qa", L("{d}知识问答", "{d} Knowledge Q&A", "{d}ナレッジQ&A"),
        L("基于知识库中的{s}回答问题并注明出处", "Answers questions about {s} from a knowledge base, citing sources",
          "ナレッジベース内の{s}に基づいて質問に回答し、出典を示します"),
        ("question answering", "qa", "faq", "knowledge base", "问答", "知识库", "答疑", "質問", "回答", "ナレッジ"),
        "Answer only from the retrieved context; if it lacks the answer, say so.",
        (), "", "answer", ("answer", "sources"), template="tpl-document-qa",
    ),
    Task(
        "rewrite", L("{d}改写助手", "{d} Rewriter", "{d}リライトアシスタント"),
        L("改写{s}，让表达更清晰、语气更得体", "Rewrites {s} for clarity and the right tone",
          "{s}を分かりやすく、適切なトーンに書き換えます"),
        ("rewrite", "rephrase", "paraphrase", "polish", "tone", "改写", "润色", "重写", "書き換え", "リライト",
         "言い換え"),
        "Rewrite the text in the requested tone without changing its meaning or figures.",
        (_TEXT, _optional("tone", L("语气", "Tone", "トーン"), "select", ("formal", "friendly", "concise", "plain"))),
        "Tone: {{tone}}\n\n{{text}}", "rewritten", ("rewritten", "changes"),
    ),
    Task(
        "review", L("{d}审核助手", "{d} Reviewer", "{d}レビューアシスタント"),
        L("审核{s}，指出风险、问题与修改建议", "Reviews {s} and flags risks, issues and suggested fixes",
          "{s}をレビューし、リスク・問題点・修正案を指摘します"),
        ("review", "check", "audit", "risk", "审核", "审查", "检查", "风险", "レビュー", "審査", "チェック", "リスク"),
        "Review the text against the checklist (or good practice). List each issue with severity and a fix.",
        (_TEXT, _optional("checklist", L("审核要点", "Review checklist", "チェック項目"), "paragraph")),
        "Checklist: {{checklist}}\n\n{{text}}", "review", ("issues", "verdict"),
    ),
    Task(
        "draft", L("{d}起草助手", "{d} Drafting Assistant", "{d}文書作成アシスタント"),
        L("根据要点起草{s}", "Drafts {s} from a short brief", "簡単なメモから{s}の下書きを作成します"),
        ("draft", "write", "compose", "report", "email", "起草", "撰写", "草稿", "报告", "作成", "下書き", "起案",
         "レポート"),
        "Write a first draft from the brief for the audience. Mark assumptions with [TBD].",
        (RecipeInput("brief", "paragraph", True, L("要点", "Brief", "要点")),
         _optional("audience", L("读者", "Audience", "読み手"))),
        "Audience: {{audience}}\n\n{{brief}}", "draft", ("title", "body"),
    ),
    Task(
        "analyze", L("{d}分析助手", "{d} Analyst", "{d}分析アシスタント"),
        L("分析{s}，总结趋势、原因与建议", "Analyzes {s} and reports trends, causes and recommendations",
          "{s}を分析し、傾向・要因・提言をまとめます"),
        ("analyze", "analysis", "insight", "sentiment", "trend", "分析", "洞察", "趋势", "评估", "インサイト",
         "傾向", "評価"),
        "Analyze the text for the given focus. Separate observations from interpretation; end with recommendations.",
        (_TEXT, _optional("focus", L("分析重点", "Focus", "分析の観点"))),
        "Focus: {{focus}}\n\n{{text}}", "analysis", ("findings", "recommendations"),
    ),
    Task(
        "proofread", L("{d}校对助手", "{d} Proofreader", "{d}校正アシスタント"),
        L("校对{s}中的错别字、语法与标点", "Proofreads {s} for spelling, grammar and punctuation",
          "{s}の誤字脱字・文法・句読点をチェックします"),
        ("proofread", "grammar", "spelling", "typo", "校对", "纠错", "错别字", "语法", "校正", "誤字", "文法"),
        "Proofread the text. Return the corrected text and list each change; keep meaning and terms.",
        (_TEXT,), "{{text}}", "corrected", ("corrected", "changes"),
    ),
)
