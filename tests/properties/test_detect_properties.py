"""detect and repair never raise; repair leaves alone what detect calls clean UTF-8 (spec 004)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from onemail.detect import detect, looks_binary, repair
from onemail.text import for_label

_SCRIPTS = st.sampled_from([
    "abcdefghij ", "àéîõüßçñ ", "абвгдежзий ", "αβγδεζηθ ", "中文的是不了人我在有他这",
    "あいうえおかきくけこアイウ", "한국어문장입니다가", "ÃÂâ€™Ð°Ñ", "ｱｲｳｴｵ", "\u00a0\u201c\u201d…",
])
texts = st.lists(st.tuples(_SCRIPTS, st.integers(1, 12)), max_size=8).flatmap(
    lambda parts: st.just("".join(alpha[:n] for alpha, n in parts)))
mixed_text = st.one_of(st.text(max_size=60), texts)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=200))
def test_detect_never_raises_and_answers_a_label(data):
    d = detect(data)
    assert for_label(d.charset) is not None
    assert 0 <= d.confidence <= 100
    assert all(0 <= c.score <= 100 for c in d.candidates)
    looks_binary(data)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mixed_text, st.sampled_from(["utf-8", "windows-1252", "gbk", "shift_jis", "euc-kr", "koi8-r"]))
def test_detect_never_raises_on_encoded_text(text, label):
    data = text.encode(label, "ignore") if label != "koi8-r" else text.encode("koi8_r", "ignore")
    d = detect(data)
    assert for_label(d.charset) is not None


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mixed_text)
def test_repair_never_raises_and_replays(text):
    from onemail.detect import apply_steps

    r = repair(text)
    assert isinstance(r.text, str)
    assert apply_steps(text, r.steps) == r.text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mixed_text)
def test_repair_leaves_clean_utf8_alone(text):
    """Text that detect scores as UTF-8 with confidence 100 is clean: repair keeps it (D14)."""
    d = detect(text.encode("utf-8"))
    if d.charset == "utf-8" and d.confidence == 100:
        assert repair(text).text == text


_PAGES = ["utf-8", "windows-1252", "latin-1", "cp1251", "cp1250", "mac_roman", "cp437", "gbk",
          "shift_jis", "euc-kr", "big5"]
mojibake = st.tuples(mixed_text, st.sampled_from(_PAGES), st.sampled_from(_PAGES)).map(
    lambda t: t[0].encode(t[1], "ignore").decode(t[2], "replace"))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(mixed_text, mojibake))
def test_repair_possible_is_false_only_when_repair_changes_nothing(text):
    """D14: the cheap pre-check (of detect, and of repair itself) may say True in vain, never
    False for a text the repair rounds change."""
    from onemail.detect._repair import _rounds, repair_possible

    if _rounds(text).steps:
        assert repair_possible(text)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mixed_text, st.sampled_from(["windows-1252", "gbk", "big5", "shift_jis", "euc-kr", "koi8_r", "cp1253"]))
def test_provisional_rows_answer_as_exact_scoring(text, codec):
    """D16: rows left at their frequency bound change no charset, confidence or two best rows."""

    from onemail.detect import _detector as module
    data = text.encode(codec, "ignore")
    fast = detect(data)
    original = module._score

    def exact(*args, provisional=None, **kwargs):
        kwargs["frequency_bound"] = kwargs.get("frequency_bound") and provisional is None
        return original(*args, **kwargs)

    module._score = exact
    try:
        slow = detect(data)
    finally:
        module._score = original
    assert (fast.charset, fast.confidence, fast.candidates[:2]) == (slow.charset, slow.confidence, slow.candidates[:2])
