"""The prose of the ACME sample documents (all written for this corpus).

Sentences that faq.yaml quotes are named constants, so an FAQ answer and the document it
cites cannot drift apart. The MD&A narrative facts appear only in the MD&A documents (and,
for Japan in 2025, in the Japanese report), as SAMPLE_CORPUS.md requires.
"""

from __future__ import annotations

Section = tuple[str, tuple[str, ...]]
"""A heading and its paragraphs, in document order."""

FISCAL_YEAR_SENTENCE = "Fiscal year = calendar year (1 January – 31 December)."
UNIT_SENTENCE = "All amounts are in millions of US dollars (USD_M)."
RETURNS_SENTENCE = "Items can be returned within 30 days of purchase with the original receipt."
TIERS_SENTENCE = "ACME membership has three tiers: Silver, Gold and Black."
TIER_REVIEW_SENTENCE = "Tiers are reviewed once a year, based on spending over the previous twelve months."

# Review-deck slide 7. Deliberately free of figures and of the MD&A's causes, so that
# "why" questions must be answered from the MD&A and nothing here can contradict it.
HIGHLIGHTS: dict[str, tuple[str, ...]] = {
    "2024": (
        "Group revenue and net profit grew year on year.",
        "Mainland China remained the largest contributor to group revenue.",
        "The group store network grew over the year.",
    ),
    "2025": (
        "Group revenue, operating profit and net profit all rose year on year.",
        "Gross margin improved in every operating entity.",
        "Mainland China and Japan continued to open stores.",
    ),
}

MDA_TITLES: dict[str, str] = {
    "2024": "ACME集团 2024财年管理层讨论与分析",
    "2025": "ACME集团 2025财年管理层讨论与分析",
}

MDA_INTRO = (
    "本文件由集团管理层编写，回顾各地区业务在本财年的经营情况及其主要驱动因素。"
    "具体财务数据以年度回顾演示文稿为准，本文侧重说明变化背后的原因。"
)

# Each entity section keeps at least one paragraph without any figure: realistic context
# text that retrieval has to rank against the paragraphs that carry the facts.
MDA_SECTIONS: dict[str, tuple[Section, ...]] = {
    "2024": (
        (
            "中国内地（ACME_CN）",
            (
                "2024财年，中国内地营业收入同比增长11.9%，增长主要来自线上渠道："
                "微信小程序商城于2024年3月上线，公司同时与多家直播平台建立了带货合作。",
                "线下方面，中国内地全年净新增门店34家，新店主要分布在二线城市。",
                "中国内地团队持续推进会员运营与门店数字化改造，区域仓配网络的调整已在年内完成，"
                "线上订单的履约时效随之改善。",
            ),
        ),
        (
            "香港（ACME_HK）",
            (
                "2024财年，香港营业收入同比下降7.4%，主要原因是入境旅客消费走弱，"
                "以及位于广东道的三家门店关闭。",
                "面对客流结构的变化，香港团队把重心转向本地常客，调整了商品组合，"
                "并加强了面向会员的沟通与活动。",
            ),
        ),
        (
            "日本（ACME_JP）",
            (
                "2024财年，日本毛利率下降2个百分点，原因是日元走弱推高了进口商品的采购成本。",
                "为应对成本压力，日本于2024年第四季度启动了成本优化项目“Project Lotus”，"
                "范围涵盖采购、物流与门店运营。",
                "日本门店网络继续稳步扩张，团队同时在评估哪些品类可以转为本地采购，以减轻汇率波动的影响。",
            ),
        ),
        (
            "集团（ACME_GROUP）",
            (
                "从集团整体看，各地区表现出现分化：中国内地保持增长，香港承压，日本则面对汇率带来的成本挑战。"
                "管理层将继续在增长投入与成本纪律之间保持平衡。",
                "集团各项关键财务数据详见2024财年年度回顾演示文稿。",
            ),
        ),
    ),
    "2025": (
        (
            "中国内地（ACME_CN）",
            (
                "2025财年，中国内地线上收入占其营业收入的比重达到46%，线上已成为该地区最重要的增长来源。",
                "中国内地在保持线上投入的同时继续优化门店布局，调整低效门店，并把更多资源投向会员复购。",
            ),
        ),
        (
            "香港（ACME_HK）",
            (
                "2025财年，香港业务在完成租金重新谈判后企稳，经营压力较上一财年明显缓解。",
                "香港团队继续以本地客群为核心，同时观察旅客消费的恢复节奏，审慎安排新的开店计划。",
            ),
        ),
        (
            "日本（ACME_JP）",
            (
                "日本于2025年4月上调了货架价格，毛利率因此回升0.5个百分点。",
                "始于2024年第四季度的成本优化项目“Project Lotus”在本财年继续推进。",
                "日本团队正与主要供应商商讨更长期的采购安排，以减轻汇率波动对成本的冲击。",
            ),
        ),
        (
            "集团（ACME_GROUP）",
            (
                "集团整体经营在本财年趋于稳健：中国内地线上业务继续扩大，香港企稳，日本的价格调整开始见效。",
                "集团各项关键财务数据详见2025财年年度回顾演示文稿。",
            ),
        ),
    ),
}

BOARD_MARKING = "CONFIDENTIAL / RESTRICTED — for members of the Board only. Do not forward or quote."
BOARD_TITLE = "ACME Group — Minutes of the Board of Directors, 2025 Q4 meeting"
BOARD_SECTIONS: tuple[Section, ...] = (
    (
        "Attendance",
        (
            "Present: the Chair, the Group Chief Executive, the Group Chief Financial Officer and the "
            "independent directors. The Company Secretary took the minutes.",
        ),
    ),
    (
        "Project Falcon",
        (
            "The Group Chief Financial Officer presented Project Falcon, a proposed acquisition of "
            "Hikari Retail for 420 USD_M.",
            "Directors discussed the strategic fit with the Japanese business, the integration risks "
            "and the financing options.",
            "As the proposal is price-sensitive, the Board agreed that it must not be disclosed outside "
            "the Board and the deal team.",
        ),
    ),
    (
        "Resolutions",
        (
            "The Board authorised management to continue due diligence on Project Falcon and to report "
            "back at the next meeting. No binding offer has been made.",
        ),
    ),
    ("Other business", ("None.",)),
)

JP_REPORT = """\
# ACME_JP 2025年 事業レポート

本レポートは、日本法人（ACME_JP）の2025年の事業状況について、現地経営陣の見解をまとめたものです。

## 価格改定

2025年4月、ACME_JPは店頭の棚価格を引き上げました。円安による輸入コストの上昇を販売価格に反映するための措置です。
この価格改定により、売上総利益率（粗利率）は前年から0.5ポイント回復しました。

## Project Lotus

2024年第4四半期に始まったコスト削減プログラム「Project Lotus」は、2025年も継続しています。
調達条件の見直し、物流拠点の統合、店舗オペレーションの効率化が主な取り組みです。

## 店舗と顧客

新規出店は立地を厳選しながら続けています。価格改定後も来店客の反応はおおむね安定しており、
会員向けの施策を通じて常連客の維持に努めています。

## 今後の見通し

為替の動向は引き続き不透明です。ACME_JPは価格政策とコスト管理の両面から、収益性の回復を着実に進めていきます。
"""

PRODUCT_POLICY = f"""\
# ACME Product Policy

This policy applies to purchases made in ACME stores and in the ACME online store in every market.
本政策适用于ACME各市场的门店及线上商城。

## Returns

{RETURNS_SENTENCE}
Returned items must be unused and in their original packaging; refunds go back to the original payment method.
凭原始购物小票，商品可在购买后30天内退货。

## Membership

{TIERS_SENTENCE}

- **Silver**: the entry tier, open to every customer who signs up in a store or in the ACME app.
- **Gold**: for regular customers; adds priority service and members-only offers.
- **Black**: the top tier, by invitation; adds a personal shopping adviser and early access to new lines.

{TIER_REVIEW_SENTENCE}
ACME会员分为三个等级：银卡（Silver）、金卡（Gold）和黑卡（Black）。
"""
