"""CJK-aware tokens: documents get CJK unigrams + bigrams, queries bigrams only."""

from __future__ import annotations

from ragspine.text import document_tokens, query_tokens


class TestDocumentTokens:
    def test_chinese_run_gives_unigrams_and_bigrams(self) -> None:
        assert document_tokens("营业收入") == ["营", "业", "收", "入", "营业", "业收", "收入"]

    def test_japanese_kana_and_kanji_form_one_run(self) -> None:
        tokens = document_tokens("価格改定により")
        assert {"価格", "改定", "によ", "り"} <= set(tokens)

    def test_english_is_lower_cased_nfkc_and_plural_stemmed(self) -> None:
        assert document_tokens("Returns ＡＣＭＥ Policies") == ["return", "acme", "policy"]

    def test_numbers_keep_one_decimal_point_and_split_from_letters(self) -> None:
        assert document_tokens("下降7.4% FY2024 v1.2.3") == ["下", "降", "下降", "7.4", "fy", "2024", "v", "1.2", "3"]

    def test_mixed_script_splits_at_script_boundaries(self) -> None:
        assert document_tokens("ACME_JP事業") == ["acme", "jp", "事", "業", "事業"]

    def test_punctuation_only_gives_nothing(self) -> None:
        assert document_tokens("。、！？ --- ...") == []


class TestQueryTokens:
    def test_chinese_query_uses_bigrams_only(self) -> None:
        assert query_tokens("香港收入为什么下降") == ["香港", "港收", "收入", "入为", "为什", "什么", "么下", "下降"]

    def test_single_character_run_keeps_its_unigram(self) -> None:
        assert query_tokens("ACME 港") == ["acme", "港"]

    def test_repeated_terms_are_counted_once(self) -> None:
        assert query_tokens("return returns RETURN") == ["return"]

    def test_every_query_bigram_is_a_document_token(self) -> None:
        text = "日本于2025年4月上调了货架价格，毛利率因此回升0.5个百分点。"
        assert set(query_tokens(text)) <= set(document_tokens(text))
