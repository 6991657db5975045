"""The page shows people, not seats: teams and partners in the lobby, the seat list and the
move log, bots with distinct names, and the end of the game from the player's side."""

from __future__ import annotations

import time
from pathlib import Path

from browser_support import Server, seat_script
from playwright.sync_api import Browser, expect
from test_play_online import DESKTOP, PHONE, Watched, play_one_move, wait_for_turn

from pegs.rules import PRESETS


def finished_table(server: Server, preset: str, players: int, name: str) -> dict[str, str]:
    """A table whose game the bots played to the end (the host's seat by a stand-in)."""
    made = server.table_with_bots(preset, players, name=name)
    code, token = made["code"], made["token"]
    server.api("POST", f"/api/tables/{code}/seats/0/bot", {"bot": "heuristic"}, token)
    deadline = time.monotonic() + 60
    while server.api("GET", f"/api/tables/{code}")["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.1)
    server.api("POST", f"/api/tables/{code}/seats/0/reclaim", {}, token)
    return {"code": code, "token": token}


def test_teams_partners_and_bot_names_in_both_pages(chromium: Browser, server: Server,
                                                    artifacts: Path) -> None:
    ann = Watched(chromium.new_context(**DESKTOP))
    bob = Watched(chromium.new_context(**PHONE))
    ann.page.goto(server.base + "/")
    ann.page.fill("#name", "Ann")
    ann.page.select_option("#preset", "pegoo")
    ann.page.select_option("#players", "4")
    ann.page.click("#create-btn")
    link = ann.page.locator("#share-link").input_value()
    bob.page.goto(link)
    # the joiner picks a team: the one with people comes first and is chosen unless they
    # choose (issue 50); Bob chooses the empty one
    choice = bob.page.locator("#team-choice label")
    expect(choice).to_have_text(["Team A, with Ann", "Team B, nobody there yet"])
    assert bob.page.locator("#team-choice input").first.is_checked()
    choice.nth(1).click()
    bob.page.fill("#join-name", "Bob")
    bob.page.click("#join-btn")
    # the lobby: seats 0 and 2 are Team A, 1 and 3 Team B (an open seat shows its team too)
    lobby = ann.page.locator("#seats li")
    expect(lobby.nth(1)).to_contain_text("Bob")
    expect(lobby.nth(0)).to_contain_text("Team A")
    expect(lobby.nth(2)).to_contain_text("Team A")
    expect(lobby.nth(2)).to_contain_text("your partner")
    expect(bob.page.locator("#seats li").nth(3)).to_contain_text("your partner")
    ann.page.screenshot(path=str(artifacts / "people-lobby.png"))
    ann.page.click("#start-btn")

    names = ["Ann", "Bob", "Yellow bot, club player", "Green bot, club player"]
    for w, partner, team in ((ann, 2, "Team A"), (bob, 3, "Team B")):
        players = w.page.locator("#players li")
        expect(players).to_have_count(4)
        assert [players.nth(i).locator(".player-name").inner_text() for i in range(4)] == names
        expect(players.nth(partner)).to_contain_text("your partner")
        assert sum("your partner" in players.nth(i).inner_text() for i in range(4)) == 1
        # a bot in a sentence without its level
        expect(w.page.locator("#me")).to_contain_text(f"{team} with {names[partner].split(',')[0]}")
    # the move log names each seat's team
    w = wait_for_turn([ann, bob])
    play_one_move(w, on_board=w is ann)
    for w in (ann, bob):
        expect(w.page.locator("#log li .team-chip").first).to_be_visible()
    ann.page.screenshot(path=str(artifacts / "people-game-desktop.png"))
    bob.page.screenshot(path=str(artifacts / "people-game-phone.png"), full_page=True)
    # the cue card, in words, fits the phone
    bob.page.click("#cue-btn")
    expect(bob.page.locator("#cue-text")).to_contain_text("Stuck in START")
    assert "_" not in bob.page.locator("#cue-text").inner_text()
    assert bob.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    bob.page.screenshot(path=str(artifacts / "people-cue-phone.png"))
    bob.page.click("#cue-close")
    assert ann.errors == [] and bob.errors == []
    ann.context.close()
    bob.context.close()


def test_the_end_says_who_won_from_the_players_side(chromium: Browser, server: Server,
                                                    artifacts: Path) -> None:
    done = finished_table(server, "pegoo", 4, "Dee")
    outcome = server.api("GET", f"/api/tables/{done['code']}/record")
    assert outcome["actions"]
    context = chromium.new_context(**PHONE)
    context.add_init_script(seat_script(done["code"], done["token"], 0, "Dee"))
    w = Watched(context)
    w.page.goto(f"{server.base}/t/{done['code']}")
    result = w.page.locator("#result")
    expect(result).to_be_visible()
    winners = w.states[-1]["view"]["outcome"]["seats"]
    if 0 in winners:
        expect(result).to_have_text("Your team won: Dee and Yellow bot")
    else:
        expect(result).to_have_text("Team B won: Blue bot and Green bot")
        expect(w.page.locator("#finished")).to_contain_text("Your team (Dee and Yellow bot")
    w.page.screenshot(path=str(artifacts / "people-end-phone.png"), full_page=True)
    assert w.errors == []
    context.close()


def test_the_create_form_speaks_plain_words(chromium: Browser, server: Server,
                                            artifacts: Path) -> None:
    context = chromium.new_context(**PHONE)
    page = context.new_page()
    page.goto(server.base + "/")
    expect(page.locator("#preset option")).to_have_count(len(PRESETS))
    games = page.eval_on_selector_all("#preset option", "os => os.map(o => o.textContent)")
    assert games == [preset.title for preset in PRESETS.values()]  # the server's records
    assert "Pegs and Jokers, North Carolina rules" in games
    page.select_option("#players", "6")
    teams = page.eval_on_selector_all("#teams option", "os => os.map(o => o.textContent)")
    assert teams == ["none: everyone plays for themselves", "2 teams of 3", "3 teams of 2"]
    assert page.locator("#teams").input_value() == "2"
    levels = page.eval_on_selector_all("#bot-level option", "os => os.map(o => o.textContent)")
    assert [t.split(":")[0] for t in levels] == ["beginner", "club player", "expert"]
    for summary in page.locator("#create details summary").all():
        summary.click()
    words = page.evaluate(
        "[...document.querySelectorAll('#create label, #create option, #create summary')]"
        ".map(e => e.textContent).join(' ')")
    assert "_" not in words and "pegoo_cant_play_pile" not in words
    # one line of help under every setting, and nothing wider than the phone
    fields = page.locator("#create .field")
    assert fields.count() == page.locator("#create .field .help").count() > 20
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(artifacts / "create-form-phone.png"), full_page=True)

    # the table options go to the server when they differ from its defaults
    page.fill("#name", "Gran")
    page.check("#public")
    page.select_option("#turn-seconds", "60")
    page.select_option("#away-seconds", "")
    page.select_option("#bot-delay", "3")
    with page.expect_request("**/api/tables") as sent:
        page.click("#create-btn")
    body = sent.value.post_data_json
    assert body["public"] is True and body["turn_seconds"] == 60
    assert body["away_seconds"] is None and body["bot_delay"] == 3
    assert body["players"] == 6 and body["teams"] == 2 and body["settings"] == {}
    context.close()


def test_a_joiner_chooses_the_team(chromium: Browser, server: Server) -> None:
    made = server.api("POST", "/api/tables", {"preset": "pegoo", "name": "Gran", "players": 4})
    context = chromium.new_context(**PHONE)
    w = Watched(context)
    w.page.goto(f"{server.base}/t/{made['code']}")
    expect(w.page.locator("form")).to_contain_text(f"{PRESETS['pegoo'].title}, 4 players")
    w.page.fill("#join-name", "Cy")
    w.page.locator("#team-choice label", has_text="with Gran").click()
    w.page.click("#join-btn")
    mine = w.page.locator("#seats li[data-seat='2']")
    expect(mine).to_contain_text("Cy")
    expect(mine).to_contain_text("Team A")
    expect(w.page.locator("#seats li[data-seat='0']")).to_contain_text("your partner")
    lobby = w.page.locator("h2", has_text=f"{PRESETS['pegoo'].title}, 4 players")
    expect(lobby).to_have_count(1)
    assert w.errors == []
    context.close()
