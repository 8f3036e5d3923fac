"""Class mode on a page: the Class button (a dialog) beside the title and the bar under it (the
teacher's code and count, or the learner's state). The class's side of a question is
``ui.blocks.class_question``'s."""

from __future__ import annotations

import os

import streamlit as st

from translation import _
from ui import safe
from ui.blocks import class_question, join_slide
from ui.session import class_mode, nav
from ui.session.run_order import Page

# Seconds between a follower's own looks at the class: the fallback of the worker's push
# (ui.session.class_mode.push), which reruns a follower within 0.2 s and says "still here".
# ATTENTION_CLASS_LOOK_SECONDS sets it (the class test sets an hour: only the push is left).
FOLLOW_EVERY = float(os.environ.get("ATTENTION_CLASS_LOOK_SECONDS", "") or 15.0)
COUNT_EVERY = join_slide.COUNT_EVERY  # seconds between the teacher's counts


def show_class_menu(page: Page) -> None:
    """The Class button beside the title. What it opens is built only when it is opened (a
    dialog): a learner who never opens it pays for one button."""
    if st.button(_("Class"), icon=":material/groups:", key="class_menu"):
        # The dialog's title is in the session's language: decorated here, not at import.
        st.dialog(_("Class"), width="medium")(_class_dialog)(page.info.key, page.settings)


def _class_dialog(page_key: str, settings) -> None:
    member = class_mode.membership()
    if member is None:
        _start_or_join(page_key, settings)
    elif member.teaching:
        _teacher_menu(member)
    else:
        st.markdown(_("You are in class {code}.").format(code=safe.md(member.code, 10)))
        if not member.asked[0] and st.button(
            _("Ask to lead this class"),
            key="class_ask_lead",
            icon=":material/co_present:",
            help=_(
                "For the teacher's second screen (a phone, another laptop, another address): "
                "the screen that leads now is asked to allow it. No key is typed or shown."
            ),
        ):
            class_mode.ask_lead()
            st.rerun()
        if st.button(_("Leave the class"), key="class_leave"):
            class_mode.leave()
            st.rerun()


def _start_or_join(page_key: str, settings) -> None:
    for code in class_mode.kept_classes():  # this browser keeps their teacher key
        if st.button(
            _("Lead class {code} from this tab").format(code=safe.md(code, 10)),
            key=f"class_lead_kept_{code}",
            icon=":material/co_present:",
            type="primary",
            help=_(
                "This browser keeps the class's teacher key. What this tab shows becomes the "
                "class's view."
            ),
        ):
            class_mode.lead_kept(code)
            st.rerun()
    if st.button(
        _("Teach a class"),
        key="class_start",
        icon=":material/co_present:",
        type="primary",
        help=_("Learners who join see this screen on theirs, page and settings, as you change it."),
    ):
        class_mode.start(page_key, settings)
        st.rerun()
    with st.form("class_join", border=False):
        # No max_chars: a browser drops a paste longer than it, and the code read was "".
        code = st.text_input(_("Join a class: its code"), key="class_code")
        if st.form_submit_button(_("Join")):
            class_mode.join(code)
            st.rerun()
    lead = st.expander(_("Lead a class you started in another tab"))
    with lead, st.form("class_take_over", border=False, clear_on_submit=True):
        code = st.text_input(_("Class code"), key="class_lead_code")
        key = st.text_input(_("Teacher key"), key="class_lead_key", type="password", max_chars=100)
        if st.form_submit_button(_("Lead this class")):
            class_mode.take_over(code, key)
            st.rerun()


def _teacher_menu(member: class_mode.Membership) -> None:
    link = class_mode.join_link(member.code)
    st.markdown(f"# {safe.md(member.code, 10)}")
    join_slide.address_notes()
    join_slide.show_qr(link, 280, caption=_("Scan to join"))
    st.code(link, language=None, wrap_lines=True)
    join_slide.slide_button("class_slide", _("Show the join slide"), primary=True)
    st.caption(
        _(
            "To lead from another screen (your phone, or this laptop on another address), join "
            "there and choose *Ask to lead this class*: this screen offers to allow it."
        )
    )
    if st.toggle(_("Show the teacher key (not on the projector)"), key="class_show_key"):
        st.caption(
            _(
                "Only for when this screen is gone: with the key, another tab or device leads "
                "this class (the Class button there, *Lead a class you started in another tab*)."
            )
        )
        st.code(member.teacher_key, language=None)
    if st.button(
        _("End the class"),
        key="class_end",
        help=_("For everyone: each learner is told, and works on their own from then on."),
    ):
        class_mode.end_class()
        st.rerun()
    class_question.show_answers_download()


def show_class_bar(page: Page) -> None:
    """Under the title: the class's state for this session (nothing outside a class)."""
    script = class_mode.cookie_script()
    if script is not None:  # a teacher key only ever in its teacher's browser
        st.html(f"<script data-class-cookie>{script}</script>", unsafe_allow_javascript=True)
    text = class_mode.message()
    if text:  # the app's own sentence: a code it names has passed classroom.read_code
        st.warning(safe.shorten(text, 300), icon=":material/groups:")
    member = class_mode.membership()
    if member is None:
        return
    if member.teaching:
        _teacher_bar(page)
    else:
        _learner_bar(page)


@st.fragment(run_every=COUNT_EVERY)
def _teacher_bar(page: Page) -> None:
    before = class_mode.membership()
    was_lost = before is not None and before.lost
    class_mode.flush()
    if class_mode.teacher_look():  # another tab took the lead, or the class ended
        st.rerun(scope="app")
    member = class_mode.membership()
    if member is None or not member.teaching:
        return
    if class_mode.handed_over():  # this screen has just let another lead
        st.rerun(scope="app")
    if member.superseded:
        _superseded(member)
        return
    if class_mode.lead_request():
        _lead_request(member)
    count = class_mode.following_count()
    member = class_mode.membership()
    if was_lost and not member.lost:  # the store is back: the open question, its tally too
        st.rerun(scope="app")
    code = safe.md(member.code, 10)
    if member.lost or count is None:
        st.error(
            _(
                "**Class {code}: the class link is lost.** Learners keep what they show; your "
                "changes reach them when the class server is back (nothing to do)."
            ).format(code=code),
            icon=":material/link_off:",
        )
        return
    link = class_mode.join_link(member.code)
    words, button = st.columns([1, 0.3], vertical_alignment="center")
    with words:
        st.info(
            _(
                "**Teaching class {code}**: {count} following. Learners join at {link} with "
                "the code {code}; the join slide shows both large, with a QR code."
            ).format(code=code, count=count, link=safe.md(link, 80)),
            icon=":material/co_present:",
        )
    with button:
        join_slide.slide_button("class_bar_slide", _("Join slide"))
    join_slide.address_notes()


def _lead_request(member: class_mode.Membership) -> None:
    """Another screen asks to lead: the leading screen allows it or refuses (no key shown)."""
    words, allow, refuse = st.columns([1, 0.18, 0.18], vertical_alignment="center")
    with words:
        st.warning(
            _(
                "**Another screen asks to lead class {code}.** Allow it if it is yours: it "
                "then leads the class, and this screen stops leading."
            ).format(code=safe.md(member.code, 10)),
            icon=":material/co_present:",
        )
    with allow:
        st.button(
            _("Allow"),
            key="class_allow_lead",
            type="primary",
            on_click=class_mode.answer_lead,
            args=(True,),
        )
    with refuse:
        st.button(
            _("Refuse"), key="class_refuse_lead", on_click=class_mode.answer_lead, args=(False,)
        )


def _superseded(member: class_mode.Membership) -> None:
    """A teacher's tab that another tab or device took the lead from: it says so, and can
    lead again with its own key."""
    words, button = st.columns([1, 0.3], vertical_alignment="center")
    with words:
        st.warning(
            _(
                "**Another tab or device leads class {code} now.** What you change here stays here."
            ).format(code=safe.md(member.code, 10)),
            icon=":material/co_present:",
        )
    with button:
        if st.button(_("Lead from here again"), key="class_lead_again", type="primary"):
            class_mode.lead_again()
            st.rerun(scope="app")


def _learner_bar(page: Page) -> None:
    """The learner's banner (drawn by a whole run) and the look at the class that keeps it
    true (a timed fragment that draws nothing)."""
    member = class_mode.membership()
    code = safe.md(member.code, 10)
    words, button = st.columns([1, 0.3], vertical_alignment="center")
    with words:
        if member.lost:
            lost = (
                _(
                    "**Class {code}: the class link is lost.** You are working on your own; "
                    "following resumes by itself when the class server is back."
                )
                if member.following  # an explorer is promised nothing it did not ask for
                else _(
                    "**Class {code}: the class link is lost.** You are exploring on your own, "
                    "as before."
                )
            )
            st.error(lost.format(code=code), icon=":material/link_off:")
        elif member.following:
            st.info(
                _("**Following the teacher** (class {code}): this screen shows theirs.").format(
                    code=code
                ),
                icon=":material/visibility:",
            )
        else:
            st.warning(
                _("**Exploring on your own** (class {code}): your changes are yours alone.").format(
                    code=code
                ),
                icon=":material/explore:",
            )
    with button:
        if member.following:
            st.button(_("Explore on my own"), key="class_explore", on_click=class_mode.explore)
        else:
            st.button(
                _("Back to the teacher"),
                key="class_back",
                type="primary",
                on_click=class_mode.back_to_teacher,
            )
    if member.asked[0]:
        st.caption(_("You asked to lead this class: the screen that leads now may allow it."))
        _await_lead()
    _look(page.info.key, (member.lost, member.following))


@st.fragment(run_every=COUNT_EVERY)
def _await_lead() -> None:
    """While this screen asks to lead: once the leading screen answers, the page is drawn
    again (as the class's leader, or with the refusal said)."""
    if class_mode.lead_answered():
        st.rerun(scope="app")


@st.fragment(run_every=FOLLOW_EVERY)
def _look(page_key: str, shown: tuple[bool, bool]) -> None:
    """Every few seconds: has the teacher moved on, or has the banner's state changed (should
    the worker's push have missed it)? Then the whole page runs again (Streamlit lets a
    fragment rerun only itself or the whole app); else nothing is drawn, so that a look costs
    a follower as little as it can."""
    found = class_mode.behind()
    if found is not None and found.page in nav.BY_KEY:
        if found.page != page_key:
            st.switch_page(nav.BY_KEY[found.page].path)
        st.rerun(scope="app")
    member = class_mode.membership()
    if member is None or (member.lost, member.following) != shown:
        st.rerun(scope="app")
