"""Joining a class from the room: the join slide for the projector (the class code, a QR code
of the join link, the link and the count of learners following), the QR code itself, and what
the teacher must know of the join link's address."""

from __future__ import annotations

import io

import segno
import streamlit as st

from translation import _, ngettext
from ui import safe
from ui.session import class_mode, joining

COUNT_EVERY = 2.0  # seconds between the teacher's counts (the slide's and the bar's)
LINK_LIMIT = 400  # characters of a join link shown whole (its address has at most 300)
# The slide alone on the screen (static: no user text). The page's sidebar and header are
# hidden; the QR code fills its column, within the screen's height; the class code fills its
# column (at 1280 px wide or more its capitals are 120 px high or more: a 185 px font), the
# link and the count are 30 px or more, the rest 28.
SLIDE_CSS = """
/* The slide is sized by the screen (vw, vh): presentation mode's quarter-larger drawing on a
   1080p projector would push the QR code over the words and the code onto two lines. */
.stApp { zoom: 1 !important; }
.stApp [data-testid="stSidebar"], .stApp [data-testid="stSidebarCollapsedControl"],
.stApp [data-testid="stHeader"] { display: none; }
.stApp .block-container { padding: 1.5rem 2.5rem 1rem; max-width: none; }
.stApp .st-key-join_slide { min-height: calc(100vh - 2.5rem); justify-content: center; }
.stApp .st-key-join_qr img
  { width: min(37vw, calc(100vh - 3rem)) !important; max-width: none !important; height: auto; }
.stApp .st-key-join_slide h1 { font-size: clamp(40px, 3.2vw, 68px); padding: 0 0 0.2em; }
.stApp .st-key-join_slide p { font-size: clamp(28px, 2.2vw, 48px); line-height: 1.25; }
.stApp .st-key-join_slide code { color: inherit; background: none; padding: 0; }
.stApp .st-key-join_slide .st-key-join_link code
  { font-size: clamp(30px, 2.4vw, 54px); font-weight: 600; overflow-wrap: anywhere; }
.stApp .st-key-join_slide .st-key-join_code code
  { font-size: min(240px, calc(16vw - 20px)); font-weight: 700; line-height: 1.1; }
.stApp .st-key-join_slide .st-key-join_count p { font-size: clamp(32px, 2.6vw, 56px); }
.stApp .st-key-join_slide button p { font-size: clamp(22px, 1.5vw, 32px); }
.stApp .st-key-join_slide [data-testid="stAlertContainer"] p { font-size: 1.1rem; }
@media (max-width: 640px) {  /* a phone or a narrow window: the columns are stacked */
  .stApp .st-key-join_qr img { width: min(85vw, calc(100vh - 3rem)) !important; }
  .stApp .st-key-join_slide .st-key-join_code code { font-size: 22vw; }
}
"""


def show_join_slide() -> bool:
    """The join slide, when the teacher opened it. True when it is drawn: the page then draws
    nothing else (``page_frame.show_title``)."""
    member = class_mode.membership()
    if not joining.slide_open():
        return False
    if member is None or not member.teaching or member.superseded:  # ended, or led elsewhere
        joining.close_slide()
        return False
    link = class_mode.join_link(member.code)
    st.html(f"<style>{SLIDE_CSS}</style>")
    with st.container(key="join_slide"):
        picture, words = st.columns([0.41, 0.59], gap="large", vertical_alignment="center")
        with picture, st.container(key="join_qr"):
            show_qr(link, 640)
        with words:
            st.title(_("Join the class"), anchor=False)
            st.markdown(_("Scan the QR code, or open"))
            with st.container(key="join_link"):
                st.markdown(safe.md(link, LINK_LIMIT))
            st.markdown(_("or type the class code under *Class → Join a class*:"))
            with st.container(key="join_code"):
                st.markdown(safe.md(member.code, 10))
            _count()
            st.button(
                _("Back to the lesson"),
                key="join_slide_back",
                icon=":material/arrow_back:",
                on_click=joining.close_slide,
            )
            address_notes()  # for the teacher, not the back row: in the page's own type
    return True


def slide_button(key: str, label: str, primary: bool = False) -> None:
    """The button that opens the join slide (the whole page runs again to draw it)."""
    if st.button(
        label,
        key=key,
        icon=":material/qr_code_2:",
        type="primary" if primary else "secondary",
        help=_("The code, the QR code and the link, large enough for the back row."),
    ):
        joining.open_slide()
        st.rerun(scope="app")


@st.fragment(run_every=COUNT_EVERY)
def _count() -> None:
    if class_mode.teacher_look():  # the class ended, or another tab took the lead: the page
        st.rerun(scope="app")
    count = class_mode.following_count()
    with st.container(key="join_count"):
        if count is None:
            st.markdown(_("The class link is lost: the count comes back by itself."))
        else:
            st.markdown(
                ngettext(
                    "**{count}** learner following", "**{count}** learners following", count
                ).format(count=count)
            )


def show_qr(link: str, width: int, caption: str | None = None) -> None:
    """The join link as a QR code ``width`` pixels wide (CSS may size it), with its text
    alternative: what it is, and the link it holds."""
    alt = _("QR code of the join link {link}").format(link=safe.plain(link, LINK_LIMIT))
    st.image(_qr_svg(link), caption=caption, width=width, alt=alt)


@st.cache_data(max_entries=64, show_spinner=False)
def _qr_svg(link: str) -> str:
    """The join link as a QR code, drawn here (segno, pure Python): nothing is fetched. An SVG
    with a viewBox, sharp at any size, in the dialog and on the projector."""
    buffer = io.BytesIO()
    segno.make(link, error="m").save(
        buffer, kind="svg", scale=10, border=2, omitsize=True, xmldecl=False, light="#fff"
    )
    return buffer.getvalue().decode().replace("<svg ", '<svg shape-rendering="crispEdges" ', 1)


def address_notes() -> None:
    """What the teacher must know of the join link's address: a setting that is no address,
    or an address that no other device can open, and what to do."""
    address = joining.address()
    if address.refused:
        st.warning(
            _(
                "**The setting `ATTENTION_PUBLIC_URL` is not used**: {value} is not a web "
                "address that starts with `http://` or `https://`. The join link shows the "
                "address found without it."
            ).format(value=safe.md(address.refused, 80)),
            icon=":material/link_off:",
        )
    if address.listens_locally:
        st.warning(
            _(
                "**Learners' devices cannot open this link**: the app accepts connections "
                "from this computer only. Start it so that it listens on the network "
                "(`--server.address 0.0.0.0`; with `deploy/serve.sh`, `--address 0.0.0.0`), or "
                "set `ATTENTION_PUBLIC_URL` to the address learners can open."
            ),
            icon=":material/wifi_off:",
        )
    elif not address.reachable:
        st.warning(
            _(
                "**Learners' devices cannot open this link**: this computer has no network "
                "address that others can reach. Connect it to the room's network and reload "
                "the page, or set `ATTENTION_PUBLIC_URL` to the address learners can open."
            ),
            icon=":material/wifi_off:",
        )
