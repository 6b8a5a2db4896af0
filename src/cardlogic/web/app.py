"""The ASGI app of ``cardlogic serve``: the page, its two assets and the JSON API over a :class:`Companion`.

Every request must carry the secret token (``?token=`` or the ``X-Token`` header), else it gets 403 and
nothing more. Bodies are JSON objects of at most :data:`MAX_BODY` bytes. Errors are JSON
``{"error": message, "field": name}`` with 400 (a refused request), 409 (a stale version), 413 (a body too
large) or 404; never a traceback.
"""

from __future__ import annotations

import hmac
import json
import logging
from importlib.resources import files
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from cardlogic.web.companion import BadRequestError, Companion, StaleVersionError

MAX_BODY = 16 * 1024
"""The largest request body accepted, in bytes: a set-up or an event is well under a kilobyte."""

HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",  # the token is in the page's address: never send it elsewhere
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
}
ASSETS = {"app.js": "text/javascript", "app.css": "text/css"}

log = logging.getLogger(__name__)


class TooLargeError(ValueError):
    """A request body over :data:`MAX_BODY` bytes."""


def create_app(companion: Companion, token: str) -> ASGIApp:
    """The app serving ``companion`` to whoever presents ``token``."""

    async def page(request: Request) -> Response:
        text = _asset("index.html").replace("{token}", token)
        return Response(text, media_type="text/html; charset=utf-8", headers=HEADERS)

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ASSETS:
            return _error("no such page", 404)
        return Response(_asset(name), media_type=ASSETS[name], headers=HEADERS)

    async def state(request: Request) -> Response:
        return await _answer(companion.state)

    async def why(request: Request) -> Response:
        return await _answer(companion.why, request.query_params.get("card", ""))

    async def claim(request: Request) -> Response:
        query = request.query_params
        return await _answer(companion.claim_sheet, query.get("claimer", ""), query.get("set", ""))

    def change(method: Any) -> Any:
        async def endpoint(request: Request) -> Response:
            try:
                body = await _json_body(request)
            except TooLargeError as error:
                return _error(str(error), 413)
            except BadRequestError as error:
                return _error(str(error), 400)
            return await _answer(method, body)

        return endpoint

    async def _answer(method: Any, *arguments: Any) -> Response:
        try:
            return JSONResponse(await run_in_threadpool(method, *arguments), headers=HEADERS)
        except StaleVersionError as error:
            return _error(str(error), 409, state=await run_in_threadpool(companion.state))
        except BadRequestError as error:
            return _error(str(error), 400, field=error.field)
        except OSError as error:  # the autosave could not be written: the change was undone
            return _error(f"the autosave could not be written, so nothing changed: {error}", 500)

    routes = [
        Route("/", page),
        Route("/{name}", asset),
        Route("/api/state", state),
        Route("/api/why", why),
        Route("/api/claim", claim),
        Route("/api/setup/check", change(companion.check_setup), methods=["POST"]),
        Route("/api/setup", change(companion.start), methods=["POST"]),
        Route("/api/event", change(companion.push), methods=["POST"]),
        Route("/api/undo", change(companion.undo), methods=["POST"]),
    ]
    app = Starlette(routes=routes, exception_handlers={404: _not_found, 405: _not_allowed, Exception: _failed})
    return TokenGate(app, token)


class TokenGate:
    """Refuses with a bare 403 every request that does not carry the token, before anything else sees it."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.token = token.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not self._allowed(scope):
            await Response("forbidden", status_code=403, media_type="text/plain", headers=HEADERS)(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _allowed(self, scope: Scope) -> bool:
        request = Request(scope)
        offered = request.headers.get("x-token") or request.query_params.get("token") or ""
        return hmac.compare_digest(offered.encode(), self.token)


async def _json_body(request: Request) -> dict[str, Any]:
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdecimal() or int(declared) > MAX_BODY):
        raise TooLargeError(f"the request body is over {MAX_BODY} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise TooLargeError(f"the request body is over {MAX_BODY} bytes")
    try:
        value = json.loads(body or b"{}")
    except (ValueError, UnicodeDecodeError) as error:
        raise BadRequestError(f"the body is not JSON: {error}") from None
    if not isinstance(value, dict):
        raise BadRequestError("the body must be a JSON object")
    return value


def _error(message: str, status: int, field: str = "", state: dict[str, Any] | None = None) -> JSONResponse:
    body: dict[str, Any] = {"error": message, "field": field}
    if state is not None:
        body["state"] = state
    return JSONResponse(body, status_code=status, headers=HEADERS)


async def _not_found(request: Request, exc: Exception) -> Response:
    return _error("no such page", 404)


async def _not_allowed(request: Request, exc: Exception) -> Response:
    return _error(f"{request.method} is not allowed here", 405)


async def _failed(request: Request, exc: Exception) -> Response:
    log.exception("request %s failed", request.url.path)
    return _error(f"the server could not answer this request ({type(exc).__name__})", 500)


def _asset(name: str) -> str:
    return (files("cardlogic.web") / "static" / name).read_text(encoding="utf-8")
