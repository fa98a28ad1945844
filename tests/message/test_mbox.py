"""``onemail.message.mbox``: the one separator rule (M20), Content-Length (M22), quoting (M21).
Whole mailboxes of every variant built from corpus messages are in test_containers.py."""

from __future__ import annotations

import pytest

from onemail.message.formats import ReadContext
from onemail.message.mbox import (
    MboxSpan,
    begins_header,
    is_separator,
    mbox_spans,
    next_separator,
    read_span,
    spans,
    unquote,
)
from onemail.message.reader import read, read_bytes, read_mbox

ENV = b"From a@b Sat Jan  1 00:00:00 2000\n"


def _box(*subjects: bytes, sep: bytes = ENV, gap: bytes = b"\n") -> bytes:
    return b"".join(sep + b"Subject: " + s + b"\n\nbody " + s + b"\n" + gap for s in subjects)


def test_spans_exclude_separators_and_the_mbox_empty_lines():
    box = _box(b"one", b"two")
    assert list(mbox_spans(box)) == [(34, 57), (92, 115)] and len(box) == 116
    assert [box[a:b] for a, b in mbox_spans(box)] == [b"Subject: one\n\nbody one\n",
                                                     b"Subject: two\n\nbody two\n"]


def test_crlf_empty_lines_are_the_mbox_too():
    box = _box(b"one", b"two").replace(b"\n", b"\r\n")
    assert [box[a:b] for a, b in mbox_spans(box)] == [b"Subject: one\r\n\r\nbody one\r\n",
                                                     b"Subject: two\r\n\r\nbody two\r\n"]


def test_separator_forms():
    """Whatever follows From on the line, with or without an empty line before it."""
    for sep in (b"From \n", b"From -\n", b"From - Mon Jan  1 00:00:00 2001\n", b"From a@b\n",
                b"From MAILER-DAEMON Thu Jul  2 12:05:05 2020\n", b"From a@b 12:30\n",
                b"From a@b Mon Jan 01 00:00:00 +0000 2018\n"):
        assert len(list(spans(_box(b"1", b"2", b"3", sep=sep)))) == 3, sep
        assert len(list(spans(_box(b"1", b"2", b"3", sep=sep, gap=b"")))) == 3, sep
    # not followed by a header: one message, the line reported
    (span,) = spans(b"From a\nSubject: 1\n\nbody\nFrom me to you\nbye\n")
    assert span.unsplit == (len(b"From a\nSubject: 1\n\nbody\n"),)


def test_body_lines_that_do_not_split():
    body = (b"From a\nSubject: x\n\ntext\n\nFrom 9:30 until 10:00\nin room 4\n\n"
            b"From Russia with love\nYear: 1963\n\nFrom :header-like\nSubject: y\n")
    (span,) = spans(body)
    assert [body[u:u + 6] for u in span.unsplit] == [b"From 9", b"From R", b"From :"]


def test_is_separator_and_begins_header():
    box = _box(b"one", b"two")
    second = box.index(b"From ", 1)
    assert is_separator(box, 0) and is_separator(box, second)
    assert not is_separator(box, second + 1) and not is_separator(box, len(ENV))
    assert begins_header(b"X-Foo: 1\nReceived: by x\n\n")
    assert not begins_header(b"X-Foo: 1\nTitle: z\n\nSubject: after the header\n")
    assert not begins_header(b" continued: x\nSubject: y\n")


def test_next_separator_cuts_give_the_sequential_spans():
    box = _box(*[b"m%d" % i for i in range(9)])
    whole = list(mbox_spans(box))
    for step in (1, 7, 50, 333):
        cuts = sorted({next_separator(box, p) for p in range(0, len(box), step)} - {-1})
        sharded = []
        for a, b in zip(cuts, [*cuts[1:], len(box)], strict=True):
            sharded += list(mbox_spans(box, start=a, end=b))
        assert sharded == whole, step
    assert next_separator(box, len(box) - 3) == -1


def test_content_length_checked_before_it_is_used():
    body = b"x\n\nFrom inner Sat Jan  1 00:00:00 2000\nSubject: inner\n\ny\n"
    good = ENV + b"Subject: a\nContent-Length: %d\n\n" % len(body) + body + b"\n" + _box(b"b")
    first, second = spans(good)
    assert (first.by_length, first.quoted, second.by_length) == (True, False, False)
    assert first.length_conflict == good.index(b"From inner")
    wrong = good.replace(b"Content-Length: %d" % len(body), b"Content-Length: 5")
    assert [s.by_length for s in spans(wrong)] == [False, False, False]
    huge = good.replace(b"Content-Length: %d" % len(body), b"Content-Length: " + b"9" * 30)
    assert len(list(spans(huge))) == 3  # more than 20 digits: ignored, never int() of them


def test_content_length_up_to_the_end_of_the_mailbox():
    body = b"From x\n"  # unquoted (mboxcl2)
    box = ENV + b"Subject: a\nContent-Length: %d\n\n" % len(body) + body + b"\n"
    (span,) = spans(box)
    assert span.by_length and box[span.start:span.end].endswith(b"\n\nFrom x\n")


def test_unquote_and_read_span_issues():
    chunk = b"Subject: q\n\n>From a\n>>From b\nFrom c\n"
    assert unquote(chunk) == (b"Subject: q\n\nFrom a\n>From b\nFrom c\n", [12, 20])
    box = ENV + chunk
    (span,) = spans(box)
    msg = read_span(box, span, ReadContext(False, 0, read_bytes))
    mbox = [(i.kind.value, i.offset, i.length) for i in msg.issues if i.where == "mbox"]
    assert mbox == [("AmbiguousMboxSeparator", 29, 6), ("AmbiguousMboxQuoting", 12, 1),
                    ("AmbiguousMboxQuoting", 20, 1)]
    assert msg.parts[0].text == "From a\n>From b\nFrom c\n"


def test_from_line_without_line_feed_and_not_an_mbox():
    assert list(spans(b"From ")) == [] and list(spans(b"From x")) == []
    assert list(spans(b"Subject: x\n\n")) == []
    assert list(spans(b"From x\n")) == [MboxSpan(7, 7, 0)]


def test_splitting_is_linear_on_hostile_lines():
    """Issue 16 item 3: an unterminated last From line full of ``0:00 `` and many candidate
    lines: the work is bounded per line (checked by counting, never timing)."""
    data = b"From a\nSubject: x\n\n" + b"From " + b"0:00 " * 40_000
    assert [s.unsplit for s in spans(data)] == [(19,)]
    many = b"From a\nSubject: x\n\n" + b"\nFrom x\nTitle: y\nNote: z\n" * 20_000
    (span,) = spans(many)
    assert len(span.unsplit) == 20_000
    envelopes = b"From a\nSubject: x\n\n" + (b"From a Mon Jan  1 00:00:00 " + b"x " * 100 + b"\n") * 2000
    (span,) = spans(envelopes)
    assert len(span.unsplit) == 2000


def test_wrong_data_type_is_a_clear_type_error():
    # a memoryview has no .find (mypy showed it; it gave AttributeError deep inside), a str
    # gave no span at all: the mailbox functions take bytes, bytearray or mmap
    box = b"From a@b Sat Jan  1 00:00:00 2000\nSubject: x\n\nhi\n"
    for bad in (memoryview(box), box.decode("ascii")):
        for call in (lambda d: list(spans(d)), lambda d: list(mbox_spans(d)),
                     lambda d: next_separator(d, 1), lambda d: is_separator(d, 0),
                     lambda d: begins_header(d, pos=0)):
            with pytest.raises(TypeError, match=f"^data must be bytes, bytearray or mmap, not {type(bad).__name__}$"):
                call(bad)
    assert list(mbox_spans(bytearray(box))) == list(mbox_spans(box)) == [(34, 49)]


# ---------------------------------------------------------------------------------------------
# the marks-based split against the rule read straight (tests/mbox_reference.py)

@pytest.mark.parametrize("scan", [1, 2, 7, 64, 1 << 18])
def test_spans_are_the_rule_read_straight(monkeypatch, scan):
    """Random mailboxes of separators, envelopes, body ``From `` lines, ``From :`` fields, right,
    wrong and huge Content-Lengths in any case, LF and CR LF, cut anywhere: the spans of the
    marks-based split (searched :data:`SCAN_BYTES` at a time, down to one byte) are the
    reference's, field for field."""
    import random

    from mbox_reference import random_mailbox, reference_spans

    from onemail.message import mbox

    monkeypatch.setattr(mbox, "SCAN_BYTES", scan)
    rng = random.Random(scan)
    by_length = 0
    for _ in range(3000):
        box = random_mailbox(rng)
        start = rng.choice([0, 0, 1])
        end = None if rng.random() < 0.7 else rng.randint(0, len(box))
        got = list(spans(box, start=start, end=end))
        assert got == list(reference_spans(box, start, end)), (box, start, end)
        by_length += sum(s.by_length for s in got)
    assert by_length > 10  # Content-Length bodies were among them


def test_spans_of_corpus_mailboxes_are_the_rule_read_straight(corpus):
    """Every corpus file holding a ``From `` line, from its start and from its first candidate
    lines: the same spans as the reference."""
    from mbox_reference import reference_spans

    seen = 0
    for path in sorted(corpus.rglob("*")):
        if not path.is_file() or path.stat().st_size > 8 << 20:
            continue
        data = path.read_bytes()
        if b"From " not in data:
            continue
        starts = [0]
        j = data.find(b"\nFrom ")
        while j >= 0 and len(starts) < 4:
            starts.append(j + 1)
            j = data.find(b"\nFrom ", j + 1)
        for start in starts:
            assert list(spans(data, start=start)) == list(reference_spans(data, start)), (path, start)
        seen += 1
    assert seen > 1400


@pytest.mark.parametrize("lead", [b"\n", b"\n\n", b"\r\n\r\n", b"\xef\xbb\xbf\n", b"\r"])
def test_m20_empty_lines_before_the_first_separator(tmp_path, lead):
    """Fresh-user report F5: an mbox that starts with empty lines was one message without a
    header whose body was the whole mailbox, with no issue. The empty lines are the mailbox's
    (M20), in read_mbox, read, the walk and the shards alike."""
    import onemail
    from onemail.message.containers import Found, walk
    from onemail.message.mbox import mbox_start

    box = (b"From a@b Mon Jan  1 00:00:00 2000\nSubject: one\n\nhello\n\n"
           b"From b@c Mon Jan  1 00:00:00 2000\nSubject: two\n\nbye\n")
    path = tmp_path / "lead.mbox"
    path.write_bytes(lead + box)
    assert mbox_start(lead + box) == len(lead)
    assert [(m.subject, m.issues) for m in read_mbox(path)] == [("one", ()), ("two", ())]
    assert onemail.read(lead + box).subject == "one"
    found = [i for i in walk([path]) if isinstance(i, Found)]
    assert [(i.source.index, i.source.offset, i.message.subject) for i in found] == [
        (0, len(lead) + 34, "one"), (1, len(lead) + 89, "two")]
    planned = list(onemail.shards([path], target_bytes=1))
    assert [r["subject"] for s in planned for r in onemail.records(s)] == ["one", "two"]


def test_m20_empty_lines_then_no_separator_stay_a_message():
    """A first ``From `` line after empty lines opens a mailbox only when it passes the
    separator rule: an empty header section and a body that starts with ``From`` stay so."""
    from onemail.message.mbox import mbox_start

    for data in (b"\n\nFrom me: hello\n", b"\nFrom 9:30 until 10:00 we eat\n", b"\n" * 5000 + box_line()):
        assert mbox_start(data) == -1
        msg = read(data)
        assert (msg.format, msg.headers, msg.error) == ("rfc822", (), None), data[:20]


def box_line() -> bytes:
    return b"From a@b Mon Jan  1 00:00:00 2000\nSubject: one\n\nhello\n"
