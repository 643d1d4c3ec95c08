"""Twenty business domains, each named in Chinese, English and Japanese.

The order is the generator's order: changing it changes ``descriptors.jsonl``.
"""

from __future__ import annotations

from ragspine.workflows.scaffold.catalog.model import Localized as L
from ragspine.workflows.scaffold.catalog.vocabulary.terms import Domain

DOMAINS: tuple[Domain, ...] = (
    Domain(
        "general", L("通用", "General", "汎用"),
        L("各类文档与文本", "general documents and text", "一般的な文書やテキスト"),
        "general-purpose office",
        ("general", "document", "text", "通用", "文档", "文本", "汎用", "文書", "テキスト"),
    ),
    Domain(
        "finance", L("财务", "Finance", "財務"),
        L("财务报表、发票与预算文件", "financial statements, invoices and budgets", "財務諸表・請求書・予算資料"),
        "finance and accounting",
        ("finance", "financial", "accounting", "invoice", "budget", "财务", "会计", "发票", "预算", "財務", "会計",
         "経理", "請求書"),
    ),
    Domain(
        "hr", L("人力资源", "Human Resources", "人事"),
        L("简历、员工手册与人事制度", "résumés, employee handbooks and HR policies", "履歴書・就業規則・人事制度"),
        "human resources",
        ("hr", "human resources", "recruiting", "resume", "employee", "人力资源", "人事", "招聘", "简历", "採用",
         "履歴書", "従業員"),
    ),
    Domain(
        "legal", L("法务", "Legal", "法務"),
        L("合同、保密协议与法律文书", "contracts, NDAs and legal documents", "契約書・秘密保持契約・法務文書"),
        "legal and compliance",
        ("legal", "law", "contract", "nda", "compliance", "法务", "法律", "合同", "合规", "法務", "契約", "契約書",
         "コンプライアンス"),
    ),
    Domain(
        "customer-service", L("客服", "Customer Service", "カスタマーサポート"),
        L("客户咨询、工单与投诉", "customer inquiries, tickets and complaints",
          "顧客からの問い合わせ・チケット・クレーム"),
        "customer support",
        ("customer service", "support", "ticket", "complaint", "客服", "客户", "工单", "投诉",
         "カスタマーサポート", "顧客", "問い合わせ", "クレーム"),
    ),
    Domain(
        "marketing", L("市场营销", "Marketing", "マーケティング"),
        L("营销文案、活动方案与市场报告", "campaign copy, marketing plans and market reports",
          "広告コピー・キャンペーン企画・市場レポート"),
        "marketing",
        ("marketing", "campaign", "advertising", "copywriting", "营销", "市场", "广告", "文案", "マーケティング",
         "広告", "キャンペーン", "販促"),
    ),
    Domain(
        "sales", L("销售", "Sales", "営業"),
        L("销售线索、报价单与客户拜访记录", "sales leads, quotes and call notes", "リード情報・見積書・商談メモ"),
        "sales",
        ("sales", "lead", "quote", "crm", "proposal", "销售", "线索", "报价", "商机", "営業", "商談", "見積書"),
    ),
    Domain(
        "it-ops", L("IT运维", "IT Operations", "IT運用"),
        L("系统日志、故障报告与运维手册", "system logs, incident reports and runbooks",
          "システムログ・障害報告・運用手順書"),
        "IT operations",
        ("it", "operations", "incident", "log", "outage", "runbook", "运维", "日志", "故障", "運用", "ログ",
         "障害", "インシデント"),
    ),
    Domain(
        "procurement", L("采购", "Procurement", "購買"),
        L("采购申请、供应商报价与采购订单", "purchase requests, supplier quotes and purchase orders",
          "購買依頼・仕入先見積・発注書"),
        "procurement",
        ("procurement", "purchasing", "supplier", "vendor", "采购", "供应商", "招标", "購買", "調達", "仕入先", "発注"),
    ),
    Domain(
        "engineering", L("研发", "Engineering", "研究開発"),
        L("技术文档、需求说明与代码评审意见", "technical documents, specifications and code review notes",
          "技術文書・仕様書・コードレビューのコメント"),
        "software engineering",
        ("engineering", "development", "software", "specification", "研发", "技术", "开发", "研究開発", "開発",
         "技術", "仕様書"),
    ),
    Domain(
        "product", L("产品", "Product Management", "プロダクト管理"),
        L("产品需求、用户反馈与路线图", "product requirements, user feedback and roadmaps",
          "製品要求・ユーザーフィードバック・ロードマップ"),
        "product management",
        ("product", "requirements", "roadmap", "feedback", "产品", "需求", "路线图", "用户反馈", "プロダクト",
         "製品", "ロードマップ", "要件"),
    ),
    Domain(
        "healthcare", L("医疗", "Healthcare", "医療"),
        L("病历、诊疗指南与患者咨询", "clinical notes, care guidelines and patient questions",
          "カルテ・診療ガイドライン・患者からの質問"),
        "healthcare administration",
        ("healthcare", "medical", "clinical", "patient", "医疗", "病历", "患者", "诊疗", "医療", "カルテ", "診療"),
    ),
    Domain(
        "education", L("教育", "Education", "教育"),
        L("课程讲义、作业与考试题目", "course materials, assignments and exam questions", "講義資料・課題・試験問題"),
        "education",
        ("education", "course", "student", "exam", "教育", "课程", "学生", "作业", "考试", "講義", "授業", "課題",
         "試験"),
    ),
    Domain(
        "ecommerce", L("电商", "E-commerce", "EC・ネット通販"),
        L("商品详情、买家评价与订单信息", "product listings, buyer reviews and orders",
          "商品説明・購入者レビュー・注文情報"),
        "e-commerce",
        ("ecommerce", "online store", "listing", "order", "电商", "网店", "商品", "评价", "订单", "ネット通販",
         "通販", "注文", "レビュー"),
    ),
    Domain(
        "logistics", L("物流", "Logistics", "物流"),
        L("运单、仓储记录与配送异常报告", "shipping documents, warehouse records and delivery exceptions",
          "送り状・倉庫記録・配送トラブル報告"),
        "logistics",
        ("logistics", "shipping", "warehouse", "delivery", "物流", "运输", "仓储", "配送", "快递", "倉庫", "出荷",
         "輸送"),
    ),
    Domain(
        "manufacturing", L("制造", "Manufacturing", "製造"),
        L("生产报告、质检记录与设备维护日志", "production reports, quality inspections and maintenance logs",
          "生産報告・品質検査記録・設備保全ログ"),
        "manufacturing",
        ("manufacturing", "production", "factory", "quality", "inspection", "制造", "生产", "工厂", "质检", "製造",
         "生産", "工場", "品質"),
    ),
    Domain(
        "public-sector", L("政务", "Public Sector", "行政・公共"),
        L("政策文件、公文与市民来信", "policy documents, official letters and citizen requests",
          "政策文書・公文書・住民からの要望"),
        "public administration",
        ("government", "public sector", "policy", "citizen", "政务", "政府", "政策", "公文", "市民", "自治体",
         "公文書", "住民"),
    ),
    Domain(
        "media", L("媒体", "Media & Publishing", "メディア・出版"),
        L("新闻稿、文章与采访记录", "press releases, articles and interview transcripts",
          "プレスリリース・記事・取材記録"),
        "media and publishing",
        ("media", "publishing", "news", "article", "press release", "媒体", "新闻", "稿件", "采访", "メディア",
         "ニュース", "記事", "取材"),
    ),
    Domain(
        "research", L("科研", "Research", "研究"),
        L("学术论文、实验记录与文献综述", "academic papers, lab notes and literature reviews",
          "学術論文・実験ノート・文献レビュー"),
        "academic research",
        ("research", "academic", "paper", "literature", "experiment", "科研", "论文", "学术", "文献", "研究",
         "論文", "実験"),
    ),
    Domain(
        "administration", L("行政办公", "Office Administration", "総務"),
        L("会议记录、通知与内部公告", "meeting notes, notices and internal announcements", "会議記録・通知・社内告知"),
        "office administration",
        ("administration", "office", "meeting", "notice", "memo", "行政", "办公", "会议", "通知", "纪要", "総務",
         "会議", "社内", "議事録"),
    ),
)
