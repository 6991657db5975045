"""Health and readiness, for a reverse proxy or an orchestrator."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from .api import HubDep

router = APIRouter()


@router.get("/health", summary="The process is running")
async def health() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/ready", summary="This process can serve: its database answers with a schema "
            "it can run on, and its background work runs", response_model=None)
async def ready(hub: HubDep) -> dict[str, str] | JSONResponse:
    if await hub.ready():
        return {"status": "ready"}
    return JSONResponse({"error": {"code": "not_ready", "message": "the database does not "
                                   "answer, its schema is not one this release can run on, "
                                   "or this process's background work is not running"}},
                        status_code=503)
