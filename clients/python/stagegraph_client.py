"""A small Stagegraph client: queries and mutations over HTTP, subscriptions over graphql-transport-ws.

Uses only Debian-packaged libraries (python3-requests, python3-websockets). The two transports have the
shape of gql's (``execute(document, variables)`` and an async ``subscribe(document, variables)``), so
gql's RequestsHTTPTransport and WebsocketsTransport can replace them where PyPI is reachable.
"""

import asyncio
import json
import uuid

import requests
import websockets

GRAPHQL_TRANSPORT_WS = "graphql-transport-ws"


class StagegraphError(Exception):
    """An error the gateway answered: branch on ``code``, show ``hint``, try one of ``next_actions``."""

    def __init__(self, message, code, hint=None, retryable=False, next_actions=(), path=(), errors=()):
        super().__init__(message)
        self.code = code
        self.hint = hint
        self.retryable = retryable
        self.next_actions = list(next_actions)
        self.path = list(path)
        self.errors = list(errors)

    @classmethod
    def from_graphql(cls, error, errors=None):
        extensions = error.get("extensions") or {}
        return cls(
            error.get("message", "unknown error"),
            code=extensions.get("code", "UNKNOWN"),
            hint=extensions.get("hint"),
            retryable=bool(extensions.get("retryable")),
            next_actions=extensions.get("nextActions") or (),
            path=error.get("path") or (),
            errors=errors or [error],
        )

    def __str__(self):
        lines = [f"{self.code}: {self.args[0]}"]
        if self.hint:
            lines.append(f"  hint: {self.hint}")
        lines.extend(f"  next: {action}" for action in self.next_actions)
        return "\n".join(lines)


def _authorization(token):
    return f"Bearer {token}" if token else None


class HttpTransport:
    """Queries and mutations as JSON POSTs with a bearer token."""

    def __init__(self, url, token=None, timeout=120):
        self.url = url
        self.timeout = timeout
        self.session = requests.Session()
        self.session.headers.update({"content-type": "application/json", "accept": "application/json"})
        if token:
            self.session.headers["authorization"] = _authorization(token)

    def execute(self, document, variables=None):
        """The raw answer, partial ``data`` and ``errors`` both."""
        try:
            response = self.session.post(
                self.url, data=json.dumps({"query": document, "variables": variables or {}}), timeout=self.timeout
            )
        except requests.RequestException as error:
            raise StagegraphError(f"cannot reach {self.url}: {error}", code="NETWORK_ERROR", retryable=True)
        try:
            return response.json()
        except ValueError:
            raise StagegraphError(
                f"HTTP {response.status_code} without a GraphQL answer: {response.text[:200]}", code="HTTP_ERROR"
            )

    def close(self):
        self.session.close()


class WebsocketsTransport:
    """Subscriptions over the graphql-transport-ws protocol (graphql-ws), one socket per subscription."""

    def __init__(self, url, token=None, ack_timeout=30):
        self.url = url
        self.token = token
        self.ack_timeout = ack_timeout

    async def subscribe(self, document, variables=None):
        """Yields each event's ``data``; raises StagegraphError when the server answers an error."""
        async with websockets.connect(self.url, subprotocols=[GRAPHQL_TRANSPORT_WS]) as socket:
            init = {"type": "connection_init"}
            if self.token:
                init["payload"] = {"authorization": _authorization(self.token)}
            await socket.send(json.dumps(init))
            ack = json.loads(await asyncio.wait_for(socket.recv(), self.ack_timeout))
            if ack.get("type") != "connection_ack":
                raise StagegraphError(f"no connection_ack: {ack}", code="CONNECTION_CLOSED")
            operation = str(uuid.uuid4())
            payload = {"query": document, "variables": variables or {}}
            await socket.send(json.dumps({"id": operation, "type": "subscribe", "payload": payload}))
            try:
                async for raw in socket:
                    message = json.loads(raw)
                    kind = message.get("type")
                    if kind == "ping":
                        await socket.send(json.dumps({"type": "pong"}))
                    elif kind == "next" and message.get("id") == operation:
                        result = message["payload"]
                        if result.get("errors"):
                            raise StagegraphError.from_graphql(result["errors"][0], result["errors"])
                        yield result["data"]
                    elif kind == "error" and message.get("id") == operation:
                        errors = message["payload"]
                        raise StagegraphError.from_graphql(errors[0], errors)
                    elif kind == "complete" and message.get("id") == operation:
                        return
            except websockets.ConnectionClosed as closed:
                code = closed.reason.split(":", 1)[0] if ":" in (closed.reason or "") else "CONNECTION_CLOSED"
                raise StagegraphError(f"the socket closed ({closed.code}): {closed.reason}", code=code)
            finally:
                # Tells the server to end it when the caller stops reading early; the socket may have closed.
                if socket.open:
                    try:
                        await socket.send(json.dumps({"id": operation, "type": "complete"}))
                    except websockets.ConnectionClosed:
                        pass


class StagegraphClient:
    """Queries and mutations raise StagegraphError on any error; subscriptions are async generators."""

    def __init__(self, url, token=None, timeout=120):
        self.http = HttpTransport(url, token, timeout)
        self.ws = WebsocketsTransport("ws" + url[len("http"):] if url.startswith("http") else url, token)

    def execute(self, document, variables=None):
        return self.http.execute(document, variables)

    def query(self, document, variables=None):
        result = self.http.execute(document, variables)
        errors = result.get("errors") or []
        if errors:
            raise StagegraphError.from_graphql(errors[0], errors)
        return result["data"]

    mutate = query

    def steps(self, document, variables=None):
        """A multi-step mutation: every step's outcome, each field's data or its error, in document order.

        Raises the first real failure (not a STEP_SKIPPED after it) so a flow stops where it went wrong.
        """
        result = self.http.execute(document, variables)
        errors = result.get("errors") or []
        data = result.get("data")
        if data is None:
            raise StagegraphError.from_graphql(errors[0] if errors else {"message": "no data"}, errors)
        by_step = {error["path"][0]: error for error in errors if error.get("path")}
        failed = [by_step[field] for field in data if field in by_step]
        real = [error for error in failed if (error.get("extensions") or {}).get("code") != "STEP_SKIPPED"]
        if real or errors:
            first = (real or failed or errors)[0]
            raise StagegraphError.from_graphql(first, errors)
        return data

    def subscribe(self, document, variables=None):
        return self.ws.subscribe(document, variables)

    def close(self):
        self.http.close()
