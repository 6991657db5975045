"""House rules online: save them (``POST /api/house``, answering an owner token), change or
delete them with that token, open a saved one by its code, list those their authors
published, and the cue card of any draft (``POST /api/cue``).
A saved house rules has the shape of a house-rules file (see ``pegs.house``)."""

from __future__ import annotations

import functools
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from ..cue import cue_card
from ..house import LONGEST_DESCRIPTION, LONGEST_TITLE, HouseRules, from_mapping
from ..rules import RulesError
from ..text import TextError, clean_text
from . import house_store, table_settings
from .api import MOST_PAGE, PAGE, Credentials, HubDep, client_address
from .limits import new_code, new_token, token_hash, token_matches
from .rooms import TableError

router = APIRouter(prefix="/api")

#: The longest code a saved house rules may have (longer ones are not looked up).
LONGEST_CODE = 32
#: Cue cards of drafts kept, the latest asked.
CUES_KEPT = 512


class Draft(BaseModel):
    """House rules as the file has them; a draft's title may still be empty."""

    model_config = ConfigDict(extra="forbid", strict=True)
    title: str = Field("", max_length=LONGEST_TITLE, description="the rules' name")
    description: str = Field("", max_length=LONGEST_DESCRIPTION,
                             description="a sentence or two for the players")
    base: str = Field(max_length=40, description="the preset they start from")
    settings: dict[str, Any] = Field(default_factory=dict,
                                     description="changed settings (names of GET /api/presets)")
    cards: dict[str, Any] = Field(default_factory=dict,
                                  description='changed card powers: {"4": ["-4"], ...}')


class SaveHouse(Draft):
    publish: bool = Field(False, description='listed by GET /api/house ("Rules other '
                          'families play") for anyone to use')


#: why a house-rules code finds nothing (their author may have deleted them)
NO_HOUSE = ("there are no house rules with that code: their author may have deleted them, "
            "or the link was cut short")


def house_of(body: Draft, title: str | None = None) -> HouseRules:
    """The house rules of ``body`` checked like a file and a table's settings, or
    ``bad_settings`` naming the setting, card or power."""
    try:
        for name in ("name", "powers"):
            if name in body.settings:
                raise RulesError(f"settings.{name}: set it with "
                                 + ("base" if name == "name" else "cards"))
        settings = table_settings.check(body.settings)
        cards = table_settings.powers(body.cards)
        return from_mapping({"title": title if title is not None else body.title,
                             "description": body.description.strip() or None, "base": body.base,
                             "settings": settings, "cards": cards})
    except (table_settings.SettingsError, RulesError) as e:
        raise TableError(400, "bad_settings", str(e)) from None


def link(code: str) -> str:
    """The share link's path: the create form filled with these rules."""
    return f"/?house={code}"


#: What a title saved before the text policy shows when the policy refuses it.
RETITLED = "House rules"


def _shown(body: dict[str, Any]) -> dict[str, Any]:
    """A saved body with its title and description as the text policy lets them show
    (rules saved before it may hold what it refuses: such a text is replaced)."""
    shown = dict(body)
    for key, longest, fallback in (("title", LONGEST_TITLE, RETITLED),
                                   ("description", LONGEST_DESCRIPTION, "")):
        value = body.get(key)
        if isinstance(value, str) and value:
            try:
                shown[key] = clean_text(value, longest=longest, what=key,
                                        multiline=key == "description")
            except TextError:
                shown[key] = fallback
    return shown


def _listed(saved: house_store.SavedHouse) -> dict[str, Any]:
    return {"code": saved.code, "link": link(saved.code), **_shown(saved.body),
            "published": saved.published, "created": saved.created.isoformat()}


def _whole(saved: house_store.SavedHouse) -> dict[str, Any]:
    house = house_of(Draft(**_shown(saved.body)))
    return {**_listed(saved), "toml": house.toml(),
            "cue": cue_card(house.rules(), house.title, house.description)}


@functools.lru_cache(maxsize=CUES_KEPT)
def _cue(draft: str) -> dict[str, Any]:
    """The cue card of a draft given as its JSON text (the latest ones kept: a family
    editing its rules asks again for what it asked before)."""
    body = Draft.model_validate_json(draft)
    house = house_of(body, title=body.title or "House rules")
    text = cue_card(house.rules(), house.title if body.title else "", house.description)
    return {"cue": text, "changed": house.rules().changed_powers()}


@router.post("/cue", summary="The cue card of house rules (a draft's title may be empty)")
async def cue(body: Draft) -> dict[str, Any]:
    return _cue(body.model_dump_json())


@router.post("/house", status_code=201, summary="Save house rules: answers their code and "
             "share link")
async def save(body: SaveHouse, hub: HubDep, request: Request) -> dict[str, Any]:
    house = house_of(body)
    address = client_address(request)
    token = new_token()
    saved = await hub.run_db(house_store.save, hub.store.engine, new_code(), house.mapping(),
                             body.publish, address, token_hash(token))
    return {**_whole(saved), "owner_token": token}


async def _owned(hub: HubDep, code: str, credentials: Credentials) -> house_store.SavedHouse:
    """The house rules saved under ``code`` if the request carries their owner token."""
    found = None
    if len(code) <= LONGEST_CODE:
        found = await hub.run_db(house_store.get, hub.store.engine, code)
    if found is None:
        raise TableError(404, "no_house", NO_HOUSE)
    if credentials is None or not token_matches(credentials.credentials, found.owner_hash):
        raise TableError(403, "not_owner", "only their author may change these house rules "
                         "(send the owner token: Authorization: Bearer TOKEN)")
    return found


@router.put("/house/{code}", summary="Change saved house rules (their author, with the owner "
            "token): the same code and link")
async def change(code: str, body: SaveHouse, hub: HubDep,
                 credentials: Credentials) -> dict[str, Any]:
    house = house_of(body)
    found = await _owned(hub, code, credentials)
    if not await hub.run_db(house_store.change, hub.store.engine, code, house.mapping(),
                            body.publish):
        raise TableError(404, "no_house", NO_HOUSE)
    return _whole(house_store.SavedHouse(code, house.mapping(), body.publish, found.created))


@router.delete("/house/{code}", summary="Delete saved house rules (their author, with the "
               "owner token); tables made with them keep their rules")
async def remove(code: str, hub: HubDep, credentials: Credentials) -> dict[str, str]:
    await _owned(hub, code, credentials)
    await hub.run_db(house_store.remove, hub.store.engine, code)
    return {"deleted": code}


@router.get("/house", summary="Published house rules (\"Rules other families play\"), "
            "newest first, a page at a time")
async def published(hub: HubDep,
                    limit: Annotated[int, Query(ge=1, le=MOST_PAGE)] = PAGE,
                    offset: Annotated[int, Query(ge=0)] = 0) -> dict[str, Any]:
    rows, total = await hub.run_db(house_store.published, hub.store.engine, limit, offset)
    return {"houses": [_listed(row) for row in rows], "total": total, "limit": limit,
            "offset": offset}


@router.get("/house/{code}", summary="Saved house rules: settings, cards, cue card and the "
            "house-rules file's text")
async def saved_house(code: str, hub: HubDep) -> dict[str, Any]:
    found = None
    if len(code) <= LONGEST_CODE:
        found = await hub.run_db(house_store.get, hub.store.engine, code)
    if found is None:
        raise TableError(404, "no_house", NO_HOUSE)
    return _whole(found)
