"""Class mode in one process (the in-memory store), through AppTest: a join link with a hostile
or unknown code is refused in words and the learner keeps working alone; a good one follows
the teacher's settings (the browser test, tests/e2e/test_class_browser.py, covers the rest)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from attention_core.knobs.table import PARAMS
from classroom.addresses import PUBLIC_URL
from classroom.store import IDLE_SECONDS, StoreDownError
from tests.ui.apptest import (
    ENTRY,
    WIDGET_KINDS,
    alerts,
    assert_clean,
    images,
    open_page,
    shown_settings,
    shown_texts,
    url_params,
)
from ui.session import class_cookies, class_mode, joining
from ui.session.class_mode import classroom

HOSTILE = ("", "<img src=x onerror=alert(1)>", "**K7RM3Q**", "K0RM3Q", "x" * 500, "CCCCCC")


@pytest.mark.parametrize("code", HOSTILE)
def test_a_bad_join_link_is_refused_in_words_and_the_page_works_alone(code):
    at = open_page(params={"class": code, "d_out": "3"})
    assert_clean(at)
    said = [body for _, _, body in alerts(at) if "Could not join a class" in body]
    assert len(said) == 1, alerts(at)
    assert "You keep working on your own" in said[0]
    assert "<img" not in said[0] and "x" * 50 not in said[0]
    assert shown_settings(at)["d_out"] == 3
    assert "class" not in url_params(at)  # not a member: the link does not carry it


def test_a_join_link_shows_the_teachers_page_and_settings_but_not_their_type_size():
    room = classroom()  # the process's store, as the app's sessions share it
    code, _key = room.start("4_Scaling", "d_out=5&mask=causal&present=1")
    at = open_page(params={"class": code})
    assert_clean(at)
    settings = shown_settings(at)
    assert settings["d_out"] == 5 and settings["mask"] == "causal"
    assert not settings["present"]
    assert any("Following the teacher" in body for _, _, body in alerts(at))
    assert url_params(at)["class"] == [code]


def test_the_workers_push_holds_a_follower_until_it_explores_and_no_one_else():
    """What each whole run tells the worker's push (classroom/push.py): a follower is held
    with its class, an explorer is let go, a session in no class is never looked up."""
    room, push = classroom(), class_mode.push()
    code, _key = room.start("streamlit_app", "d_out=3")
    alone = open_page(params={"d_out": "3"})
    assert_clean(alone)
    assert class_mode.PUSHED not in alone.session_state  # never a follower: never looked up
    at = open_page(params={"class": code})
    assert_clean(at)
    assert code in push.following().values()
    held = {sid for sid, c in push.following().items() if c == code}
    assert len(held) == 1
    at.button(key="class_explore").click().run()
    assert_clean(at)
    assert any("Exploring on your own" in body for _, _, body in alerts(at))
    assert code not in push.following().values()


def test_a_teachers_page_this_app_does_not_have_keeps_the_learner_following_its_own_view():
    """A class led from another version of the app may name a page this one lacks: the learner
    stays on its page, still following (found when the push's bookkeeping detached it)."""
    code, _key = classroom().start("no_such_page", "d_out=5")
    at = open_page(params={"class": code, "d_out": "4"})
    assert_clean(at)
    assert shown_settings(at)["d_out"] == 4
    assert at.session_state[class_mode.MEMBERSHIP].following
    assert any("Following the teacher" in body for _, _, body in alerts(at))


def test_a_page_that_reconnects_after_the_teacher_moved_on_shows_the_teachers_view():
    """A learner's worker is killed and the teacher moves d_out meanwhile: the page reconnects
    to a new session with its link and the widget values it still holds (the old view). That
    first run takes the teacher's view, and the widgets show it too: the browser's old values
    are not taken as the learner's own (issue 51, fault 2: it followed, showing the old d_out
    until the teacher's next change, and the push saw nothing to do)."""
    room = classroom()
    code, key = room.start("streamlit_app", "d_out=3&scaling=d&query=3")
    room.lead(code, key, "streamlit_app", "d_out=5&scaling=d&query=3")
    at = AppTest.from_file(ENTRY, default_timeout=60)
    for name, value in {"class": code, "d_out": "3", "scaling": "d", "query": "3"}.items():
        at.query_params[name] = value
    for name, value in {"d_out": 3, "scaling": "d", "query": 3, "seed": 7}.items():
        at.session_state[name] = value  # the widgets as the browser still holds them
    at.run()
    assert_clean(at)
    settings = shown_settings(at)  # every widget shows what the link says
    assert (settings["d_out"], settings["scaling"], settings["query"]) == (5, "d", 3)
    assert settings["seed"] == 123  # the teacher's (the default), not the browser's 7
    member = at.session_state[class_mode.MEMBERSHIP]
    assert member.following and member.applied == room.state(code).version
    at.run()  # the next run (the push's, say) keeps it in step and following
    assert shown_settings(at)["d_out"] == 5
    assert at.session_state[class_mode.MEMBERSHIP].following


def test_a_follower_taken_to_another_page_shows_the_teachers_knobs_there():
    """The teacher's view moves to another page with other knobs (a new leader's, say): the
    run that takes it switches page before drawing a widget, and the next run, on the new
    page, read the widgets' old keys as the learner's own values. Learners showed the new
    page with the old d_out and scaling, still "following" (issue 63, found by the lecture's
    hand-over)."""
    room = classroom()
    code, key = room.start("streamlit_app", "d_out=4&scaling=d&query=3&seed=7")
    at = open_page(params={"class": code})
    assert (shown_settings(at)["d_out"], shown_settings(at)["scaling"]) == (4, "d")
    room.lead(code, key, "5_Causal_mask", "d_out=5&scaling=none&query=3&seed=7")
    room.state(code)  # the push's read
    at.run()  # the push's run: the teacher's view, on page 5
    assert_clean(at)
    settings = shown_settings(at)
    assert (settings["d_out"], settings["scaling"]) == (5, "none"), settings
    assert at.session_state[class_mode.MEMBERSHIP].following
    at.run()  # the browser's next run: nothing moved
    assert (shown_settings(at)["d_out"], shown_settings(at)["scaling"]) == (5, "none")
    assert at.session_state[class_mode.MEMBERSHIP].following


def test_a_run_that_takes_the_teachers_view_sends_every_widget_its_value():
    """The push reruns a follower from the server: its browser may not have drawn the run
    before (a page just reloaded gets the push's run right after its first). A widget sent
    without its value set would start there at Streamlit's own default (seed 0, scaling
    none, train off, token 1), and the browser's next run would send those as the learner's
    change (issue 51, fault 1: "you are exploring on your own" with settings nobody chose).
    So every widget of such a run carries the teacher's value, not only those that moved."""
    room = classroom()
    view = "d_out=3&scaling=d&query=3&seed=7&train=false"
    code, key = room.start("streamlit_app", view)
    at = open_page(params={"class": code})
    assert_clean(at)
    room.lead(code, key, "streamlit_app", view.replace("d_out=3", "d_out=5"))
    room.state(code)  # the push's read: the worker's sessions see the new version
    at.run()  # as the push asks
    assert_clean(at)
    settings = shown_settings(at)
    assert (settings["d_out"], settings["seed"], settings["query"]) == (5, 7, 3)
    drawn = {w.key: w for kind in WIDGET_KINDS for w in at.get(kind) if w.key in PARAMS}
    assert {"d_out", "seed", "scaling", "query", "train"} <= drawn.keys()
    unset = sorted(name for name, w in drawn.items() if not w.proto.set_value)
    assert unset == [], unset
    at.run()  # a run of the browser's own: nothing moved, so still following
    assert at.session_state[class_mode.MEMBERSHIP].following
    assert shown_settings(at)["seed"] == 7


# --- the teacher stays the teacher; the class ends cleanly (issue 51) -------------------------


def teach(at: AppTest) -> tuple[str, str]:
    """*Class → Teach a class* in session ``at``; its class code and teacher key. (A dialog's
    button is read only in the run that opens the dialog: both are clicked for one run.)"""
    at.button(key="class_menu").click().run()
    at.button(key="class_menu").click()
    at.button(key="class_start").click().run()
    assert_clean(at)
    member = at.session_state[class_mode.MEMBERSHIP]
    assert member.teaching and not member.superseded
    return member.code, member.teacher_key


def end_the_class(at: AppTest) -> AppTest:
    at.button(key="class_menu").click().run()
    at.button(key="class_menu").click()
    return at.button(key="class_end").click().run()


def cookie_scripts(at: AppTest) -> list[str]:
    return [h.proto.body for h in at.get("html") if "data-class-cookie" in h.proto.body]


def said(at: AppTest, words: str) -> list[str]:
    return [body for _, _, body in alerts(at) if words in body]


def set_d_out(at: AppTest, value: int) -> AppTest:
    at.slider(key="d_out").set_value(value).run()
    assert_clean(at)
    assert shown_settings(at)["d_out"] == value
    return at


@pytest.fixture
def cookies(monkeypatch) -> dict[str, str]:
    """The cookies the next sessions' browser sends (AppTest's sessions have none)."""
    jar: dict[str, str] = {}
    monkeypatch.setattr(class_cookies, "browser_cookies", lambda: jar)
    return jar


def test_the_teachers_key_goes_into_a_cookie_of_their_browser_and_nowhere_else():
    teacher = open_page(params={"d_out": "3"})
    code, key = teach(teacher)
    (script,) = cookie_scripts(teacher)
    name = f"attention_teacher_{code}"
    assert f'"{name}": ["{key}", {IDLE_SECONDS}]' in script
    assert "SameSite=Strict" in script and '"path": "/"' in script
    assert not any(key in text for text in shown_texts(teacher))
    assert key not in str(url_params(teacher))
    learner = open_page(params={"class": code})
    assert said(learner, "Following the teacher")
    (kept,) = cookie_scripts(learner)  # the learner's own id only
    learner_id = learner.session_state[class_mode.MEMBERSHIP].learner
    assert f'"attention_learner_{code}": ["{learner_id}", {IDLE_SECONDS}]' in kept
    assert "attention_teacher_" not in kept
    assert not any(key in h.proto.body for h in learner.get("html"))


def test_a_learner_who_reloads_is_the_same_learner_counted_once(cookies):
    """The learner's browser keeps its id in the class: a reload (a new session) is the same
    learner, so the teacher's count stays at one and the answer given is kept."""
    teacher = open_page(params={"d_out": "3"})
    code, _key = teach(teacher)
    first = open_page(params={"class": code})
    learner_id = first.session_state[class_mode.MEMBERSHIP].learner
    room = classroom()
    room.follow(code, learner_id)  # what the worker's push says for it
    assert room.following(code) == 1
    cookies[f"attention_learner_{code}"] = learner_id  # what the script kept
    again = open_page(params={"class": code})  # the reload
    assert_clean(again)
    assert again.session_state[class_mode.MEMBERSHIP].learner == learner_id
    assert cookie_scripts(again) == []  # kept already: nothing to write
    room.follow(code, again.session_state[class_mode.MEMBERSHIP].learner)
    assert room.following(code) == 1
    for value in ("<b>x</b>", "g" * 16, "1" * 200):  # a forged cookie: a fresh id instead
        cookies[f"attention_learner_{code}"] = value
        other = open_page(params={"class": code})
        assert_clean(other)
        assert other.session_state[class_mode.MEMBERSHIP].learner not in (value, learner_id)


def test_a_second_screen_leads_when_the_leading_one_allows_it_with_no_key_shown(cookies):
    """The teacher's phone (or their laptop on another address, where the browser holds no
    cookie of this one) joins, asks to lead; the leading screen offers *Allow* and *Refuse*;
    allowed, the phone leads, keeps a key of its own, no longer counts as a learner, and the
    first screen says another leads now. No key is ever drawn on either screen."""
    teacher = open_page(params={"d_out": "3"})
    code, key = teach(teacher)
    room = classroom()
    phone = open_page(params={"class": code})
    phone_member = phone.session_state[class_mode.MEMBERSHIP]
    room.follow(code, phone_member.learner)
    # Refused first.
    phone.button(key="class_menu").click().run()
    phone.button(key="class_menu").click()
    phone.button(key="class_ask_lead").click().run()
    assert_clean(phone)
    assert "You asked to lead this class" in " ".join(c.value for c in phone.caption)
    teacher.run()
    assert said(teacher, "Another screen asks to lead class")
    teacher.button(key="class_refuse_lead").click().run()
    assert_clean(teacher)
    assert said(teacher, f"**Teaching class `{code}`**")
    phone.run()
    assert said(phone, "did not let this one lead")
    assert not phone.session_state[class_mode.MEMBERSHIP].teaching
    # Allowed.
    phone.button(key="class_menu").click().run()
    phone.button(key="class_menu").click()
    phone.button(key="class_ask_lead").click().run()
    teacher.run()
    teacher.button(key="class_allow_lead").click().run()
    assert_clean(teacher)
    assert said(teacher, f"**Another tab or device leads class `{code}` now.**")
    phone.run()
    assert_clean(phone)
    member = phone.session_state[class_mode.MEMBERSHIP]
    assert member.teaching and member.teacher_key != key
    assert said(phone, f"**Teaching class `{code}`**") and said(phone, "You lead class")
    assert room.following(code) == 0  # the phone is the teacher's, not a learner
    set_d_out(phone, 5)
    assert "d_out=5" in room.state(code).link
    set_d_out(teacher, 2)  # the first screen changes nothing now
    assert "d_out=2" not in room.state(code).link
    (kept,) = cookie_scripts(phone)  # a reload there leads too
    assert f'"attention_teacher_{code}": ["{member.teacher_key}"' in kept
    for at in (teacher, phone):
        assert not any(k in text for text in shown_texts(at) for k in (key, member.teacher_key))


def test_a_reload_in_the_teachers_browser_leads_and_the_old_tab_stops_leading(cookies):
    first = open_page(params={"d_out": "3"})
    code, key = teach(first)
    room = classroom()
    cookies[f"attention_teacher_{code}"] = key
    second = open_page(params={"class": code, "d_out": "3"})  # a reload, or a new tab
    assert_clean(second)
    assert said(second, f"**Teaching class `{code}`**")
    assert not said(second, "Following the teacher")
    assert room.state(code).leader == second.session_state[class_mode.MEMBERSHIP].leader
    first.run()
    assert said(first, f"**Another tab or device leads class `{code}` now.**")
    set_d_out(first, 5)  # a change in the tab that no longer leads
    assert "d_out=5" not in room.state(code).link
    set_d_out(second, 6)
    assert "d_out=6" in room.state(code).link
    first.button(key="class_lead_again").click().run()  # with its own key, none typed
    assert_clean(first)
    assert said(first, f"**Teaching class `{code}`**")
    assert "d_out=5" in room.state(code).link  # what this tab shows, published
    second.run()
    assert said(second, "Another tab or device leads class")
    set_d_out(second, 2)
    assert "d_out=5" in room.state(code).link


def test_a_cookie_with_a_wrong_or_malformed_key_only_joins(cookies):
    code, _key = classroom().start("streamlit_app", "d_out=4", leader="t")
    for value in ("A" * 32, "<script>alert(1)</script>", "x" * 500):
        cookies[f"attention_teacher_{code}"] = value
        at = open_page(params={"class": code})
        assert_clean(at)
        assert said(at, "Following the teacher"), value
        assert not at.session_state[class_mode.MEMBERSHIP].teaching
        assert classroom().state(code).leader == "t"
        assert class_cookies.KEY_TEXT.fullmatch(value) is None or value == "A" * 32


def test_ending_the_class_deletes_it_and_detaches_followers_and_explorers():
    teacher = open_page(params={"d_out": "3"})
    code, _key = teach(teacher)
    follower = open_page(params={"class": code})
    explorer = open_page(params={"class": code})
    explorer.button(key="class_explore").click().run()
    assert said(explorer, "Exploring on your own")
    assert code in class_mode.push().exploring().values()  # held for the news of the end
    end_the_class(teacher)
    assert_clean(teacher)
    assert said(teacher, f"Class {code} has ended: every learner now works on their own.")
    assert classroom()._store.read(code) is None
    assert [f'"attention_teacher_{code}": ["", 0]' in s for s in cookie_scripts(teacher)] == [True]
    assert "class" not in url_params(teacher)
    for learner in (follower, explorer):
        learner.run()  # what the worker's push asks of them
        assert_clean(learner)
        assert said(learner, f"Class {code} has ended: you keep working on your own.")
        assert not said(learner, "Following the teacher") and not said(learner, "Exploring")
        assert "class" not in url_params(learner)
        assert class_mode.MEMBERSHIP not in learner.session_state or (
            learner.session_state[class_mode.MEMBERSHIP] is None
        )
    assert code not in class_mode.push().exploring().values()


def test_an_expired_class_ends_for_its_teacher_too(cookies):
    code, key = classroom().start("streamlit_app", "d_out=4", leader="t")
    cookies[f"attention_teacher_{code}"] = key
    teacher = open_page(params={"class": code})
    assert said(teacher, "Teaching class")
    classroom()._store.delete(code)  # what 4 idle hours do
    classroom()._recent.pop(code, None)  # a look 0.2 s later reads the store again
    teacher.run()
    assert_clean(teacher)
    assert said(teacher, f"Class {code} has ended.")
    assert [f'"attention_teacher_{code}": ["", 0]' in s for s in cookie_scripts(teacher)] == [True]


def test_an_explorers_banner_says_it_explores_while_the_link_is_lost_and_after(monkeypatch):
    """Fault 3 of issue 51: after the store returned, an explorer's banner still said "the
    class link is lost… following resumes by itself"."""
    code, _key = classroom().start("streamlit_app", "d_out=4")
    learner = open_page(params={"class": code})
    store = classroom()._store

    def down(code):
        raise StoreDownError("down")

    monkeypatch.setattr(store, "read", down)
    classroom()._recent.pop(code, None)  # a look 0.2 s later reads the store again
    learner.run()
    assert said(learner, "following resumes by itself")
    learner.button(key="class_explore").click().run()
    assert said(learner, "the class link is lost.** You are exploring on your own")
    assert not said(learner, "following resumes")
    monkeypatch.undo()
    learner.run()
    assert said(learner, "**Exploring on your own**")
    assert not said(learner, "link is lost")


def test_a_reload_while_the_store_is_down_leads_once_it_is_back(cookies, monkeypatch):
    """The teacher reloads during a Redis outage: the page says the link is lost, keeps the
    teacher's change, and takes the lead and publishes it when the store answers again."""
    room = classroom()
    code, key = room.start("streamlit_app", "d_out=4", leader="before")
    cookies[f"attention_teacher_{code}"] = key

    def down(*_args, **_kwargs):
        raise StoreDownError("down")

    for method in ("read", "write", "write_if", "count_seen"):
        monkeypatch.setattr(room._store, method, down)
    room._recent.pop(code, None)
    teacher = open_page(params={"class": code, "d_out": "4"})
    assert_clean(teacher)
    assert said(teacher, f"**Class `{code}`: the class link is lost.**")
    assert url_params(teacher)["class"] == [code]  # a later reload still names the class
    set_d_out(teacher, 6)
    monkeypatch.undo()
    assert room.state(code).leader == "before"
    teacher.run()
    assert_clean(teacher)
    assert said(teacher, f"**Teaching class `{code}`**")
    assert room.state(code).leader == teacher.session_state[class_mode.MEMBERSHIP].leader
    assert "d_out=6" in room.state(code).link


def test_a_tab_opened_without_the_link_offers_to_lead_the_class_this_browser_keeps(cookies):
    room = classroom()
    code, key = room.start("4_Scaling", "d_out=5", leader="projector")
    ended, ended_key = room.start("streamlit_app", "d_out=4")
    room.end(ended, ended_key)
    cookies[f"attention_teacher_{code}"] = key
    cookies[f"attention_teacher_{ended}"] = ended_key  # a class gone: nothing offered
    cookies["attention_teacher_<b>x</b>"] = key  # not a code: never read
    at = open_page(params={"d_out": "3"})
    assert not said(at, "Teaching class")  # nothing happens by itself: the projector leads
    at.button(key="class_menu").click().run()
    offered = [b.key for b in at.button if b.key.startswith("class_lead_kept_")]
    assert offered == [f"class_lead_kept_{code}"]
    at.button(key="class_menu").click()
    at.button(key=f"class_lead_kept_{code}").click().run()
    assert_clean(at)
    assert said(at, f"**Teaching class `{code}`**")
    assert room.state(code).leader == at.session_state[class_mode.MEMBERSHIP].leader
    assert "d_out=3" in room.state(code).link  # this tab's view is the class's now


# --- joining from the room: the join link's address and the join slide -----------------------

PUBLIC = "https://class.example.org/attention"  # ATTENTION_PUBLIC_URL, as a host sets it
SLIDE_TITLE = "Join the class"


def slide_texts(at) -> list[str]:
    return [m.value for m in at.markdown]


@pytest.mark.parametrize("page", ["streamlit_app", "4_Scaling"])
def test_the_join_slide_shows_the_code_link_qr_code_and_live_count_and_back_returns(
    page, monkeypatch
):
    monkeypatch.setenv(PUBLIC_URL, PUBLIC)
    at = open_page(page)
    code, _key = teach(at)
    link = f"{PUBLIC}/?class={code}"
    banner = said(at, "Teaching class")
    assert len(banner) == 1 and f"`{link}`" in banner[0] and "join slide" in banner[0]
    lesson = [t.value for t in at.title]
    assert lesson and lesson != [SLIDE_TITLE]
    at.button(key="class_bar_slide").click().run()
    assert_clean(at)
    assert [t.value for t in at.title] == [SLIDE_TITLE]  # the slide alone
    assert not at.get("vega_lite_chart") and not at.sidebar.code
    texts = slide_texts(at)
    assert f"`{code}`" in texts and f"`{link}`" in texts
    assert "**0** learners following" in texts
    assert images(at) == [(f"QR code of the join link {link}", images(at)[0][1])]
    assert images(at)[0][1].startswith("data:image/svg+xml;base64,")  # drawn here, not fetched
    classroom().follow(code, "0123456789abcdef")  # a learner's worker says it follows
    at.run()
    assert "**1** learner following" in slide_texts(at)
    at.button(key="join_slide_back").click().run()
    assert_clean(at)
    assert [t.value for t in at.title] == lesson and not images(at)
    assert said(at, "Teaching class")


def test_the_class_dialog_opens_the_join_slide_and_a_learner_has_no_join_slide(monkeypatch):
    monkeypatch.setenv(PUBLIC_URL, PUBLIC)
    at = open_page()
    code, _key = teach(at)
    at.button(key="class_menu").click().run()
    dialog_qr = images(at)
    assert dialog_qr and dialog_qr[0][0] == f"QR code of the join link {PUBLIC}/?class={code}"
    at.button(key="class_menu").click()
    at.button(key="class_slide").click().run()
    assert_clean(at)
    assert [t.value for t in at.title] == [SLIDE_TITLE] and f"`{code}`" in slide_texts(at)
    learner = open_page(params={"class": code})
    assert_clean(learner)
    assert "class_bar_slide" not in [b.key for b in learner.button]
    learner.session_state[joining.SLIDE] = True  # even a forged flag shows a learner no slide
    learner.run()
    assert [t.value for t in learner.title] != [SLIDE_TITLE] and not images(learner)


def test_a_bad_public_url_setting_is_named_and_the_network_address_used(monkeypatch):
    monkeypatch.setenv(PUBLIC_URL, "class.example.org:8501")
    monkeypatch.setattr(joining, "network_addresses", lambda: ["192.0.2.2"])
    at = open_page()
    code, _key = teach(at)
    refused = said(at, "`ATTENTION_PUBLIC_URL` is not used")
    assert len(refused) == 1 and "`class.example.org:8501`" in refused[0], alerts(at)
    assert any(f"`http://192.0.2.2:8501/?class={code}`" in body for _, _, body in alerts(at))


def test_with_no_network_address_the_teacher_is_told_what_to_do(monkeypatch):
    monkeypatch.delenv(PUBLIC_URL, raising=False)
    monkeypatch.setattr(joining, "network_addresses", lambda: [])
    at = open_page()
    teach(at)
    unreachable = said(at, "cannot open this link")
    assert len(unreachable) == 1 and "ATTENTION_PUBLIC_URL" in unreachable[0], alerts(at)
    at.button(key="class_bar_slide").click().run()
    assert said(at, "cannot open this link")
    assert "localhost" in images(at)[0][0]


def test_the_join_slide_closes_when_the_class_ends_or_another_tab_leads(cookies):
    at = open_page()
    code, key = teach(at)
    at.button(key="class_bar_slide").click().run()
    assert [t.value for t in at.title] == [SLIDE_TITLE]
    cookies[f"attention_teacher_{code}"] = key
    open_page(params={"class": code})  # the teacher's browser, another tab: it leads now
    at.run()
    assert_clean(at)
    assert [t.value for t in at.title] != [SLIDE_TITLE] and not images(at)
    assert said(at, f"**Another tab or device leads class `{code}` now.**")
    other = open_page()
    code, key = teach(other)
    other.button(key="class_bar_slide").click().run()
    classroom().end(code, key)  # ended from another device with the key
    other.run()
    assert_clean(other)
    assert [t.value for t in other.title] != [SLIDE_TITLE] and not images(other)
    assert class_mode.MEMBERSHIP not in other.session_state or (
        other.session_state[class_mode.MEMBERSHIP] is None
    )
