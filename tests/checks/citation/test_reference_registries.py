"""Reading the registries' and arXiv's metadata responses (in their documented formats), and comparing a
record with what a bibliography entry says."""

from __future__ import annotations

import json

import pytest
from registry_testkit import agency, arxiv_error, arxiv_feed, crossref, datacite, unregistered

from cgx_checks.references.codes import ReferenceCode
from cgx_checks.references.identity import EntryFields, differences, family_key, fold
from cgx_checks.references.registries import (
    Notice,
    Unregistered,
    arxiv_record,
    crossref_record,
    datacite_record,
    registration_agency,
)
from cgx_core.errors import CgxError

RESNET = crossref(
    "10.1109/CVPR.2016.90",
    "Deep Residual Learning for Image Recognition",
    [("Kaiming", "He"), ("Xiangyu", "Zhang")],
    issued=(2016, 6),
    published_print=(2016, 6),
    published_online=(2016, 12, 12),
)


def unreadable(call: object) -> str:
    with pytest.raises(CgxError) as caught:
        call()  # type: ignore[operator]
    assert caught.value.code == ReferenceCode.METADATA_UNREADABLE
    return caught.value.message


def test_the_agency_lookup() -> None:
    assert registration_agency("10.1038/323533a0", agency("10.1038/323533a0", "Crossref")) == "Crossref"
    assert registration_agency("10.1430/8105", agency("10.1430/8105", "mEDRA")) == "mEDRA"
    assert registration_agency("10.9999/x", unregistered("10.9999/x")) == Unregistered(
        "doi", "10.9999/x", "doi.org says 'DOI does not exist'"
    )
    assert registration_agency("10.9999", unregistered("10.9999", "Invalid DOI")).why == "doi.org says 'Invalid DOI'"
    assert "neither an agency" in unreadable(lambda: registration_agency("d", b'[{"status": "Here be monsters"}]'))
    assert "not an array of one object" in unreadable(lambda: registration_agency("d", b'{"RA": "Crossref"}'))
    assert "not JSON" in unreadable(lambda: registration_agency("d", b"<html>busy</html>"))


def test_a_crossref_work() -> None:
    record = crossref_record("10.1109/CVPR.2016.90", RESNET)
    assert record.via == "Crossref"
    assert record.titles == ("Deep Residual Learning for Image Recognition",)
    assert record.first_author == "He"
    assert record.years == (2016,)
    assert record.notices == ()


def test_a_crossref_work_with_a_subtitle_an_organisation_and_a_first_author_listed_second() -> None:
    message = json.loads(RESNET)
    message["message"]["subtitle"] = ["A Study"]
    message["message"]["author"] = [
        {"given": "B", "family": "Second", "sequence": "additional"},
        {"name": "The Collaboration", "sequence": "first"},
    ]
    record = crossref_record("d", json.dumps(message).encode())
    assert record.titles == (
        "Deep Residual Learning for Image Recognition",
        "Deep Residual Learning for Image Recognition: A Study",
    )
    assert record.first_author == "The Collaboration"


def test_crossref_retractions_and_expressions_of_concern_are_notices() -> None:
    retracted = crossref(
        "10.5555/jip.2019.012",
        "Damped oscillators in the laboratory",
        [("Jane", "Smith")],
        issued=(2019,),
        updated_by=[
            {
                "updated": {"date-parts": [[2021, 3, 4]]},
                "DOI": "10.5555/jip.2021.retraction",
                "type": "retraction",
                "source": "retraction-watch",
                "label": "Retraction",
            },
            {"updated": {"date-parts": [[2020, 1, 1]]}, "DOI": "10.5555/eoc", "type": "expression_of_concern"},
            {"updated": {"date-parts": [[2019, 6, 1]]}, "DOI": "10.5555/fix", "type": "correction"},  # not a notice
        ],
    )
    record = crossref_record("10.5555/jip.2019.012", retracted)
    assert record.notices == (
        Notice("expression_of_concern", "Crossref", "10.5555/eoc", "2020", None),
        Notice("retraction", "Crossref", "10.5555/jip.2021.retraction", "2021", "retraction-watch"),
    )
    notice = crossref(
        "10.5555/jip.2021.retraction",
        "Retraction notice",
        [],
        issued=(2021,),
        update_to=[{"updated": {"date-parts": [[2021]]}, "DOI": "10.5555/jip.2019.012", "type": "retraction"}],
    )
    assert crossref_record("10.5555/jip.2021.retraction", notice).notices == (
        Notice("retraction_notice", "Crossref", "10.5555/jip.2021.retraction", "2021", None),
    )
    related = json.loads(RESNET)
    related["message"]["relation"] = {"is-retracted-by": [{"id-type": "doi", "id": "10.1/r", "asserted-by": "subject"}]}
    assert crossref_record("d", json.dumps(related).encode()).notices == (
        Notice("retraction", "Crossref", "10.1/r", None, "relation is-retracted-by"),
    )


@pytest.mark.parametrize(
    "body",
    [b'{"status": "error", "message": "x"}', b'{"message": []}', b"[]", b"Resource not found."],
)
def test_a_crossref_answer_that_is_not_a_work_is_unreadable(body: bytes) -> None:
    unreadable(lambda: crossref_record("d", body))


def test_crossref_dates_that_are_not_years_are_ignored() -> None:
    message = json.loads(RESNET)
    message["message"]["issued"] = {"date-parts": [[None]]}
    message["message"]["published-print"] = {"date-parts": [[True]]}
    message["message"]["published-online"] = {"date-parts": "2016"}
    message["message"]["published"] = {"date-parts": [[20160]]}
    assert crossref_record("d", json.dumps(message).encode()).years == ()


def test_a_datacite_record() -> None:
    body = datacite("10.48550/arXiv.2112.06861", "Tests of General Relativity with GWTC-3", [("R.", "Abbott")], 2021)
    record = datacite_record("10.48550/arXiv.2112.06861", body)
    assert (record.via, record.titles, record.first_author, record.years) == (
        "DataCite",
        ("Tests of General Relativity with GWTC-3",),
        "Abbott",
        (2021,),
    )
    organisation = json.loads(body)
    organisation["data"]["attributes"]["creators"] = [
        {"name": "LIGO Scientific Collaboration", "nameType": "Organizational"}
    ]
    assert datacite_record("d", json.dumps(organisation).encode()).first_author == "LIGO Scientific Collaboration"
    assert "not" in unreadable(lambda: datacite_record("d", b'{"errors": [{"status": "404"}]}'))


def test_an_arxiv_feed() -> None:
    feed = arxiv_feed(
        "1412.6980",
        9,
        "Adam: A Method for\n  Stochastic Optimization",
        ["Diederik P. Kingma", "Jimmy Ba"],
        "2014-12-22T13:54:29Z",
        "2017-01-30T01:27:54Z",
    )
    record = arxiv_record("1412.6980", None, feed)
    assert not isinstance(record, Unregistered)
    assert record.titles == ("Adam: A Method for Stochastic Optimization",)
    assert record.first_author == "Diederik P. Kingma"
    assert record.years == (2014, 2015, 2016, 2017)  # every year a version could have appeared
    assert arxiv_record("1412.6981", None, feed) == Unregistered(
        "arxiv", "1412.6981", "arXiv's API has no paper of that id"
    )
    assert isinstance(arxiv_record("1412.6980", None, arxiv_error("1412.6980")), Unregistered)


def test_an_arxiv_withdrawal_in_its_comment_is_a_notice() -> None:
    feed = arxiv_feed(
        "2101.00001",
        2,
        "T",
        ["A B"],
        "2021-01-01T00:00:00Z",
        "2021-02-01T00:00:00Z",
        comment="This paper has been withdrawn by the author due to an error in Eq. 3",
    )
    record = arxiv_record("2101.00001", None, feed)
    assert not isinstance(record, Unregistered)
    assert [notice.type for notice in record.notices] == ["withdrawal"]


@pytest.mark.parametrize(
    ("body", "why"),
    [
        (b"not xml at all <", "not XML"),
        (b'<?xml version="1.0"?><html/>', "not an Atom feed"),
        (
            b'<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>'
            b'<feed xmlns="http://www.w3.org/2005/Atom"><title>&b;</title></feed>',
            "declares a document type or entities",
        ),
    ],
)
def test_an_arxiv_answer_that_is_not_a_plain_atom_feed_is_unreadable(body: bytes, why: str) -> None:
    assert why in unreadable(lambda: arxiv_record("2101.00001", None, body))


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("<i>Schrödinger</i>'s Cat", "schrodingerscat"),
        ("Deep {Residual} Learning", "deepresiduallearning"),
        ("back-propagating   errors", "backpropagatingerrors"),
        ("Stra\u00dfe &amp; ﬁsh", "strassefish"),
    ],
)
def test_fold(text: str, folded: str) -> None:
    assert fold(text) == folded


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("van der Waals", "waals"),
        ("Smith Jr.", "smith"),
        ("Diederik P. Kingma", "kingma"),
        ("Müller", "muller"),
        ("", ""),
    ],
)
def test_family_key(name: str, key: str) -> None:
    assert family_key(name) == key


ENTRY = EntryFields("Deep residual learning for image recognition", "He", "2016", "He et al. 2016")


def test_an_entry_that_agrees_with_its_record_has_no_difference() -> None:
    assert differences(ENTRY, ["Deep Residual Learning for Image Recognition"], "He", [2016], "Crossref") == []


def test_each_field_that_differs_is_named_with_both_values() -> None:
    found = differences(
        EntryFields("Shallow learning", "Zhang", "2015", ""),
        ["Deep Residual Learning"],
        "Kaiming He",
        [2016],
        "Crossref",
    )
    assert [(diff.field, diff.entry, diff.record) for diff in found] == [
        ("title", "Shallow learning", "Deep Residual Learning"),
        ("first author", "Zhang", "Kaiming He"),
        ("year", "2015", "2016"),
    ]
    assert found[2].sentence() == "the year differs: the entry says '2015', Crossref records '2016'"


def test_what_the_entry_or_the_record_does_not_say_is_not_compared() -> None:
    assert (
        differences(
            EntryFields("T is a title", None, None, "Printed: T is a title, 1999"), ["T is a title"], None, [], "x"
        )
        == []
    )


def test_a_printed_reference_is_compared_by_its_text() -> None:
    printed = EntryFields(None, None, None, "K. He, X. Zhang. Deep residual learning for image recognition. CVPR 2016.")
    assert differences(printed, ["Deep Residual Learning for Image Recognition"], "He", [2016], "Crossref") == []
    wrong = differences(printed, ["Identity Mappings in Deep Residual Networks"], "He", [2017], "Crossref")
    assert [diff.field for diff in wrong] == ["title", "year"]
    # a short family name must be a word of the text, not a part of one
    assert [diff.field for diff in differences(printed, [], "Ren", [], "Crossref")] == ["first author"]
