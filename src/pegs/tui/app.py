"""The terminal game: board, seats, hand, move picker and announcements (Textual).

Humans choose card, then peg, then the move from the legal list (or type a move in the
engine's notation); bots think in a worker thread and move at a readable pace.  With two
or more humans at one keyboard a cover screen hides the table between their turns, and a
human only ever sees the view of the seat whose turn it is.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from collections import Counter
from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, ScrollableContainer, Vertical, VerticalScroll
from textual.geometry import Region
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from ..cue import cue_card
from ..hint import HintError
from ..hint import choose as hint_choose
from ..notation import CARD_WORDS, option_words, seat_name, team_name
from ..record import length_words
from ..rules import PRESETS, Action, IllegalActionError, NotationError, View
from .board import layout, legend, render, seat_style
from .choose import Choice, Picker, peg_label
from .log_view import LatestLines
from .screens import CoverScreen, TextScreen
from .seat_list import seats_text, status_text
from .session import STRENGTHS, Session, SetupError
from .turn_keys import ChoiceList, MoveBox, TurnClock

PACE_STEP = 0.25
STRENGTH_OF = {bot: word for word, bot in STRENGTHS.items()}
#: Below this size the board is listed by seat instead of drawn (see ``PegsApp.fit``).
COMPACT_WIDTH = 100
COMPACT_HEIGHT = 30
#: The smallest window the game is played in (below it a message asks for more room).
SMALLEST = (80, 24)
#: Rows the compact layout leaves the list of seats: the window's less the log and footer.
LOG_AND_FOOTER = 7
#: Columns of the side (hand, choices, move box) in the compact layout.
COMPACT_SIDE = 46

KEYS = """\
  1-9, Enter  choose an option (arrows move); keys typed before your
              turn are dropped, so nothing is chosen for you
  Escape      back to the options list, or to the previous choice
  t           type a move, e.g.  7: 0.5>0.9, 0.12>0.15  (Enter plays it)
  b           the board, or the list of seats in a small window: the
              arrows scroll it, Escape goes back to the options
  l           the whole log of moves, from the start: the arrows and
              Page Up/Down scroll it (the bottom shows the latest moves)
  h           hint: the move the strongest bot would play for you
  c           the cue card of the rules being played
  + / -       bots move slower / faster (0 s is instant)
  q, Ctrl+C   save and quit (go on later: pegs play --resume FILE)
  ?           this page
Notation: S start, s.h side s hole h, Hk home hole k; FROM>TO forward,
FROM<TO back, A~B swap: A: S>0.5, 8: 0.5<3.17, 9: H3>H4, 0.5<3.17"""


class PegsApp(App[None]):
    """One game of Pegs and Jokers at the terminal."""

    TITLE = "Pegs & Jokers"
    ENABLE_COMMAND_PALETTE = False  # its footer entry would push the game's keys off an
    # 80-column footer
    CSS = """
    #main { height: 1fr; }
    #board-box { width: 1fr; height: 1fr; overflow: auto auto; }
    #board-box:focus { background: $boost; }
    #board { width: auto; padding: 0 1; }
    #seats { display: none; width: auto; padding: 0 1; }
    #side { width: 52; height: 1fr; }
    #side-top { height: 1fr; }
    #status { height: auto; }
    PegsApp.-compact #board, PegsApp.-compact #legend, PegsApp.-compact #status {
        display: none;
    }
    PegsApp.-compact #seats { display: block; }
    PegsApp.-compact #side { width: 46; }  /* COMPACT_SIDE */
    PegsApp.-compact #hand { margin-top: 0; }
    PegsApp.-compact #log { height: 6; }
    PegsApp.-compact #side-top { overflow-y: hidden; }
    PegsApp.-compact #board-box { scrollbar-size-vertical: 1; }
    PegsApp.-compact #options { height: 1fr; max-height: 100%; min-height: 4; }
    #hand { height: auto; margin-top: 1; }
    #prompt { height: auto; margin-top: 1; text-style: bold; }
    #options { height: auto; max-height: 16; }
    #message { height: auto; min-height: 1; }
    #message.error { color: $error; }
    #log { height: 12; border-top: solid $accent; }
    #too-small { display: none; height: 1fr; content-align: center middle; padding: 0 1; }
    PegsApp.-too-small #main, PegsApp.-too-small #log { display: none; }
    PegsApp.-too-small #too-small { display: block; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "go_back", "Back"),
        Binding("t", "type_move", "Type"),
        Binding("b", "board", "Board"),
        Binding("h", "hint", "Hint"),
        Binding("c", "cue", "Cue"),
        Binding("plus,equals_sign", "pace(1)", "Pace", key_display="+/-"),
        Binding("minus", "pace(-1)", "Faster", show=False),
        Binding("l", "log", "Log"),
        Binding("question_mark", "keys", "Keys"),
        Binding("q", "leave", "Quit"),
        # what players expect of Ctrl+C (Textual's own only says how to quit)
        Binding("ctrl+c", "leave", "Quit", show=False, priority=True),
    ]

    def __init__(self, session: Session, delay: float = 0.8, hint_seconds: float = 1.0,
                 notes: Sequence[str] = ()) -> None:
        super().__init__()
        self.notes = tuple(notes)
        self.session = session
        self.delay = max(0.0, delay)
        self.hint_seconds = hint_seconds
        self.picker: Picker | None = None
        self.hot_seat = len(session.humans) >= 2
        self.shown_seat = session.humans[0] if len(session.humans) == 1 else -1
        self.revealed = -1
        self.touched: set[tuple[int, int]] = set()
        self.finished = ""
        self.thinking = False
        self.clock = TurnClock()
        self.window = SMALLEST  # the window's size, as last seen by ``fit``
        #: The signal that ended the game (SIGTERM), if one did.
        self.stopped_by: signal.Signals | None = None

    # --- layout -----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        # kept as attributes: events may arrive while another screen is on top or after
        # the main one is gone, when a query would find nothing
        self.board_view = Static(id="board")
        self.status_view = Static(id="status")
        self.hand_view = Static(id="hand")
        self.prompt_view = Static(id="prompt")
        self.options_view = ChoiceList(self.clock, id="options")
        self.notation_input = MoveBox(self.clock, id="notation",
                                      placeholder="t: type a move, e.g. 7: 0.5>0.9, 1.2>1.5")
        self.message_view = Static(id="message")
        self.log_view = LatestLines(id="log")
        self.seats_view = Static(id="seats")
        self.board_box = ScrollableContainer(id="board-box")
        with Horizontal(id="main"):
            with self.board_box:
                yield self.board_view
                yield Static(legend(self.session.rules.holes_per_side), id="legend")
                yield self.seats_view
            with Vertical(id="side"):
                with VerticalScroll(id="side-top"):
                    yield self.status_view
                    yield self.hand_view
                    yield self.prompt_view
                    yield self.options_view
                yield self.notation_input
                yield self.message_view
        yield self.log_view
        self.too_small_view = Static(id="too-small")
        yield self.too_small_view
        yield Footer()

    def on_mount(self) -> None:
        rules, house = self.session.rules, self.session.house
        self.title = f"Pegs & Jokers: {house.title if house else PRESETS[rules.name].title}"
        # `kill` ends the game as q does: saved, the terminal given back as it was (no
        # signals on Windows, nor in a thread)
        with contextlib.suppress(NotImplementedError, RuntimeError):
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, self.terminate)
        if self.session.actions:
            for words in self.session.recent:
                self.add_to_log(words)
            self.add_to_log(f"Resumed after {len(self.session.actions)} actions "
                            f"(saved in {self.session.path}).")
        else:
            # (the seed stays off the screen: it would tell every hand)
            self.add_to_log(f"New game, saved as it goes to {self.session.path}. "
                            "Press ? for the keys.")
        for note in self.notes:
            self.add_to_log(f"Note: {note}")
        self.options_view.focus()
        self.fit(self.size.width, self.size.height)
        self.advance()
        self.call_after_refresh(self.show_own_side)

    # --- the window -------------------------------------------------------------------------
    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size.width, event.size.height)
        self.call_after_refresh(self.show_own_side)

    def fit(self, width: int, height: int) -> None:
        """The compact layout (the seats and their pegs as a list instead of the drawing)
        when the window is too small for the board beside the choices; below
        :data:`SMALLEST`, a message saying how much room the game needs."""
        self.window = (width, height)
        self.set_class(width < COMPACT_WIDTH or height < COMPACT_HEIGHT, "-compact")
        least_width, least_height = SMALLEST
        small = width < least_width or height < least_height
        self.set_class(small, "-too-small")
        self.too_small_view.update(
            f"This window is {width} x {height}: the game needs at least {least_width} x "
            f"{least_height} (columns x rows).\n\nMake the window bigger or the font "
            "smaller, and the game comes back as it was. q saves and quits.")
        self.seats_view.update(self.seats_text(self.session.view_for(self.shown_seat)))

    def show_own_side(self) -> None:
        """Scroll the board so that the side of the seat being shown (the human's) is in
        view: its start, its home and its stretch of the ring."""
        seat = self.shown_seat if self.shown_seat >= 0 else -1
        if seat < 0 and len(self.session.humans) == 1:
            seat = self.session.humans[0]
        if seat < 0 or self.has_class("-compact"):
            return
        geo = self.session.state.geo
        lay = layout(geo)
        h = geo.holes_per_side
        side = geo.side_of[seat]
        cells = [*lay.start[seat], *lay.home[seat], *lay.ring[side * h:(side + 1) * h]]
        top = min(r for r, _ in cells)
        left = min(c for _, c in cells)
        bottom = max(r for r, _ in cells)
        right = max(c for _, c in cells)
        self.board_box.scroll_to_region(
            Region(1 + 2 * left, top, 2 * (right - left) + 2, bottom - top + 1),
            animate=False, center=True, force=True)

    # --- the flow of turns ------------------------------------------------------------------
    def advance(self) -> None:
        """Set up whatever comes next: the end, a bot's move or a human's choice."""
        self.picker = None
        self.clock.close()
        state = self.session.state
        if state.is_over():
            self.finish()
            return
        seat = self.session.to_act
        if self.session.is_human(seat):
            if self.hot_seat and seat != self.revealed:
                self.shown_seat = -1
                self.refresh_all()
                self.push_screen(CoverScreen(seat_name(seat)), lambda _: self.reveal(seat))
                return
            self.reveal(seat)
            return
        if self.hot_seat:
            self.shown_seat = -1
        self.thinking = True
        self.refresh_all()
        self.run_worker(self.bot_turn(), group="bot", exclusive=True)

    def reveal(self, seat: int) -> None:
        """Show ``seat``'s hand and its choices."""
        if self.hot_seat and seat != self.revealed:
            self.call_after_refresh(self.show_own_side)
        self.revealed = self.shown_seat = seat
        state = self.session.state
        self.picker = Picker.build(state.legal_actions(), state.geo, state.pegs,
                                   state.turn, self.say)
        self.refresh_all()
        self.clock.open()
        if not self.notation_input.has_focus:  # a move being typed keeps the box
            self.options_view.focus()

    async def bot_turn(self) -> None:
        """Bots move until a human is to act or the game ends, each at the chosen pace
        (at pace 0 the screen is drawn once for the whole run of bot moves)."""
        while True:
            started = time.monotonic()
            action = await asyncio.to_thread(self.session.bot_choice)
            wait = self.delay - (time.monotonic() - started)
            if wait > 0:
                await asyncio.sleep(wait)
            self.record(action)
            state = self.session.state
            if state.is_over() or self.session.is_human(state.current_player):
                break
            if self.delay > 0:
                self.refresh_all()
        self.thinking = False
        self.advance()

    def play(self, action: Action) -> bool:
        """Play ``action`` for the seat to act, or say clearly why it is not legal."""
        if not self.record(action):
            return False
        self.advance()
        return True

    def record(self, action: Action) -> bool:
        """Apply, save and announce ``action`` (False, with the reason shown, if illegal)."""
        before = self.session.state.pegs
        seat = self.session.to_act
        try:
            words = self.session.play(action)
        except (IllegalActionError, ValueError) as e:
            self.tell(f"Not legal: {e}", error=True)
            return False
        after = self.session.state.pegs
        self.touched = {(q, pos) for q in range(len(after))
                        for pos in (Counter(after[q]) - Counter(before[q]))}
        line = Text(words)
        line.stylize(seat_style(seat), 0, len(seat_name(seat)))
        self.add_to_log(line)
        try:
            self.session.save()
        except SetupError as e:
            self.add_to_log(f"Warning: {e}")
        else:
            self.tell("")
        return True

    def finish(self) -> None:
        state = self.session.state
        outcome = state.outcome()
        assert outcome is not None
        who = " and ".join(seat_name(s) for s in outcome.seats)
        if state.rules.teams:
            self.finished = (f"{team_name(outcome.team)} wins after "
                             f"{length_words(self.session.actions)}: {who}.")
        else:
            self.finished = f"{who} wins after {length_words(self.session.actions)}."
        self.add_to_log(self.finished)
        self.shown_seat = self.shown_seat if not self.hot_seat else -1
        self.refresh_all()
        self.tell(f"Press q to leave. The record: pegs replay {self.session.path}")

    # --- words ------------------------------------------------------------------------------
    def add_to_log(self, line: str | Text) -> None:
        """Add ``line`` to the log (the latest lines at the bottom, all of them on ``l``)."""
        self.log_view.add(Text(line) if isinstance(line, str) else line)

    def say(self, action: Action) -> str:
        """How an option reads: the move's announcement, or a decision in plain words."""
        state = self.session.state
        word = action.decision.split(" ")[0]
        if word == "doubt":
            return "Doubt it: turn the card over"
        if word == "pass":
            return "No doubt: let it stand"
        if word == "send":
            pos = state.geo.parse(action.decision[5:])
            owner = next(s for s, pegs in enumerate(state.pegs) if pos in pegs)
            return f"Send the {peg_label(state.geo, (owner, pos))} back to START"
        return option_words(state, action)

    def kind_word(self, seat: int) -> str:
        """Who plays ``seat``, in the words of ``--seats``: you, human (hot seat), easy,
        normal or strong."""
        kind = self.session.seats[seat]
        if self.session.is_human(seat) and not self.hot_seat:
            return "you"
        return STRENGTH_OF.get(kind, kind)

    def tell(self, text: str, error: bool = False) -> None:
        message = self.message_view
        message.update(Text(text))
        message.set_class(error, "error")

    # --- drawing ----------------------------------------------------------------------------
    def refresh_all(self) -> None:
        seen = self.session.view_for(self.shown_seat)
        self.refresh_board(seen)
        self.status_view.update(self.status_text(seen))
        self.seats_view.update(self.seats_text(seen))
        self.hand_view.update(self.hand_text(seen))
        self.refresh_choices(seen)

    def refresh_board(self, seen: View, pointed: Choice | None = None) -> None:
        """The board: pegs that may be picked reversed, the option under the cursor
        pointed at, the last move's pegs underlined."""
        highlight = set()
        if self.picker is not None:
            highlight = {c.spot for c in self.picker.options() if c.spot is not None}
        spots: tuple[tuple[int, int], ...] = ()
        if pointed is not None:
            spots = pointed.targets or ((pointed.spot,) if pointed.spot else ())
        board = render(self.session.state.geo, seen.pegs, highlight, self.touched, spots)
        self.board_view.update(board)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if self.picker is None:
            return
        options = self.picker.options()
        if 0 <= event.option_index < len(options):
            self.refresh_board(self.session.view_for(self.shown_seat),
                               options[event.option_index])

    def status_text(self, seen: View) -> Text:
        return status_text(self.session, seen, self.kind_word, self.delay)

    def seats_text(self, seen: View) -> Text:
        """The compact layout's list of seats, in the rows and columns the window leaves it
        (see :func:`pegs.tui.seat_list.seats_text`)."""
        width, height = self.window
        return seats_text(self.session, seen, self.kind_word, self.delay,
                          height - LOG_AND_FOOTER,
                          width - COMPACT_SIDE - 3)  # less padding and scroll bar

    def hand_text(self, seen: View) -> Text:
        if seen.seat < 0:
            return Text("Hands are hidden.", style="italic")
        text = Text("Hand of ")
        text.append(seat_name(seen.seat), seat_style(seen.seat))
        text.append(":\n  " + "  ".join(f"[{card}]" for card in seen.hand))
        return text

    def refresh_choices(self, seen: View) -> None:
        prompt = self.prompt_view
        options = self.options_view
        options.clear_options()
        # shown (empty) during the bots' turns too, so that it keeps the focus
        options.display = not self.finished
        if self.finished:
            prompt.update(Text(f"Game over. {self.finished}"))
            return
        seat = self.session.to_act
        if self.picker is None:
            what = "thinking" if self.thinking else "to play"
            prompt.update(Text(f"{seat_name(seat)} ({self.kind_word(seat)}) {what}..."))
            return
        head = self.picker.prompt()
        pending = seen.pending
        if pending is not None and pending.chooser < 0:
            head = (f"{seat_name(pending.declarer)} played a card face down as "
                    f"{CARD_WORDS[pending.action.declared]} (see the last announcement). "
                    f"{seat_name(seat)}: doubt it?")
        elif pending is not None:
            head = f"{seat_name(seat)}: choose the peg to send back to START"
        trail = "".join(f"\n  {label}" for label in self.picker.trail())
        prompt.update(Text(head + trail))
        options.add_options([
            Option(f"{i}. {c.label}" if i <= 9 else f"   {c.label}", id=f"opt{i}")
            for i, c in enumerate(self.picker.options(), 1)
        ])
        options.highlighted = 0

    # --- choosing ---------------------------------------------------------------------------
    def choose(self, index: int) -> None:
        """Take option ``index`` (1-based) of the current level (never unseen, in a window
        too small to show the options)."""
        if self.picker is None or self.has_class("-too-small"):
            return
        options = self.picker.options()
        if not 1 <= index <= len(options):
            self.tell(f"There is no option {index}: choose 1 to {len(options)}.", error=True)
            return
        picker = self.picker.pick(options[index - 1].key)
        action = picker.result()
        if action is not None:
            self.play(action)
            return
        self.picker = picker
        self.tell("")
        self.refresh_all()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.choose(event.option_index + 1)

    def on_choice_list_numbered(self, event: ChoiceList.Numbered) -> None:
        event.stop()
        self.choose(event.number)

    def on_move_box_early(self, event: MoveBox.Early) -> None:
        event.stop()
        seat = self.session.to_act
        self.tell(f"Wait: it is {seat_name(seat)}'s turn ({self.kind_word(seat)}); "
                  "press Enter again on your turn.", error=True)

    def action_go_back(self) -> None:
        """Back to the options list from anywhere else (the move box, the board, the log
        after Tab); on the list, back to the previous choice."""
        if not self.options_view.has_focus:
            self.options_view.focus()
            self.tell("")
            return
        if self.picker is not None:
            self.picker = self.picker.back()
            self.refresh_all()

    def action_board(self) -> None:
        self.board_box.focus()
        self.tell("Arrows, Page Up/Down, Home and End scroll the board; Escape goes back "
                  "to the options.")

    def action_type_move(self) -> None:
        self.notation_input.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if not text:
            return
        if self.finished:
            self.tell("The game is over.", error=True)
            return
        if self.has_class("-too-small"):
            return
        if self.picker is None:
            seat = self.session.to_act
            self.tell(f"Wait: it is {seat_name(seat)}'s turn ({self.kind_word(seat)}).",
                      error=True)
            return
        try:
            action = Action.parse(text)
        except NotationError as e:
            self.tell(f"Cannot read that move: {e}", error=True)
            return
        if self.play(action):
            event.input.value = ""
            self.options_view.focus()

    # --- other keys -------------------------------------------------------------------------
    def action_hint(self) -> None:
        if self.picker is None:
            self.tell("A hint is for your own turn.", error=True)
            return
        self.tell("Thinking about a hint...")
        self.run_worker(self.find_hint(), group="hint", exclusive=True)

    async def find_hint(self) -> None:
        state, seat = self.session.state, self.session.to_act
        try:
            found = await asyncio.to_thread(hint_choose, state, seat, self.hint_seconds)
        except HintError as e:
            self.tell(str(e), error=True)
            return
        if self.session.state is state:
            self.tell(f"Hint, the strong bot's move: {found.announcement}\n  {found.reason}"
                      f"\n  (typed: {found.action})")

    def action_cue(self) -> None:
        house = self.session.house
        card = (cue_card(self.session.rules, house.title, house.description) if house
                else cue_card(self.session.rules))
        self.push_screen(TextScreen(card, "Cue card", hanging=True))

    def action_keys(self) -> None:
        self.push_screen(TextScreen(KEYS, "Keys"))

    def action_log(self) -> None:
        self.push_screen(TextScreen(Text("\n").join(self.log_view.entries), "The whole log",
                                    at_end=True))

    def action_pace(self, direction: int) -> None:
        self.delay = max(0.0, round(self.delay + direction * PACE_STEP, 2))
        self.refresh_all()

    def action_leave(self) -> None:
        self.exit()

    def terminate(self) -> None:
        """SIGTERM: leave as ``q`` does (the game is saved after every action), so that the
        terminal is given back as it was and the saved game is told."""
        self.stopped_by = signal.SIGTERM
        self.exit()
