"""Health and readiness, for a reverse proxy or an orchestrator."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from .api import HubDep
from .store import at_head

router = APIRouter()


@router.get("/health", summary="The process is running")
async def health() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/ready", summary="The database answers and its schema is current",
            response_model=None)
async def ready(hub: HubDep) -> dict[str, str] | JSONResponse:
    if await hub.run_db(at_head, hub.store.engine):
        return {"status": "ready"}
    return JSONResponse({"error": {"code": "not_ready", "message": "the database does not "
                                   "answer or its schema is not current"}}, status_code=503)
