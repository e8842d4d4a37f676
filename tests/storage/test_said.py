"""A person's message (storage/errors.py Said): the API's English text, and what a page says it
again from in another language; a count's message keeps the API's "(s)" and has its plural."""
import copy
import pickle

import pytest

from storage.errors import Said, say, say_count


def test_a_message_is_its_english_text_and_keeps_its_words_and_values():
    said = say("No product %(code)r.", code="MILK")
    assert said == "No product 'MILK'." and isinstance(said, str)
    assert (said.id, said.params, said.plural) == ("No product %(code)r.", {"code": "MILK"}, None)


def test_a_value_may_be_named_id():
    assert say("Return %(id)r exists already.", id="r-1") == "Return 'r-1' exists already."


def test_a_counts_message_answers_the_apis_text_and_keeps_both_forms():
    said = say_count("%(count)s item refused.", "%(count)s items refused.", 3, text="%(count)s item(s) refused.")
    assert said == "3 item(s) refused."
    assert (said.id, said.plural, said.params) == ("%(count)s item refused.", "%(count)s items refused.", {"count": 3})


@pytest.mark.parametrize("again", [copy.copy, copy.deepcopy, lambda said: pickle.loads(pickle.dumps(said))])
def test_a_copy_is_the_same_message(again):
    said = say_count("%(count)s line refused: %(why)s", "%(count)s lines refused: %(why)s", 2,
                     text="%(count)s line(s) refused: %(why)s", why=say("lot %(lot)s", lot="A"))
    copied = again(said)
    assert isinstance(copied, Said) and copied == said == "2 line(s) refused: lot A"
    assert (copied.id, copied.plural, copied.params) == (said.id, said.plural, said.params)
    assert isinstance(copied.params["why"], Said)
