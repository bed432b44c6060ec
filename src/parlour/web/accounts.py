"""Accounts: the rules of registering, signing in and signing out (the web layer only translates).

Anyone plays at once as a guest: an identity, the player id in the browser's signed session cookie.
A guest may register a username and a password; the account then keeps *that* identity (the
registering guest's player id), so the guest's seats, games and ratings are the account's.  Signing
in on another browser puts the account's identity into that browser's cookie; signing out gives the
browser a fresh guest identity.

- A **username** is 3 to 24 characters: ASCII letters, digits, ``.``, ``_`` and ``-``, starting with a
  letter or a digit; unique whatever its case (``Bea`` and ``bea`` are one account).  It is only for
  signing in: the name the other players see is the display name (``PUT /api/me``), which a guest who
  never chose one takes from the username on registering.
- A **password** is 8 to 128 characters, any of them.  It is kept only as its argon2id hash
  (argon2-cffi's :class:`~argon2.PasswordHasher`, its recommended parameters); a hash made with older
  parameters is made again at the next sign-in.
- A wrong password and an unknown username get the same words (401), and an unknown username costs
  the same hashing time, so that nobody can find out which usernames exist.
- Sign-in attempts are limited per username (whoever tries it) and per client address, and
  registrations per address (token buckets, :class:`~parlour.web.limits.KeyedBuckets`): over them,
  429 with when to try again.
"""

from __future__ import annotations

import asyncio
import re
import secrets
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from parlour.web.limits import KeyedBuckets, Limits, retry_text
from parlour.web.store import TableStore
from parlour.web.tables import TableError

USERNAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{2,23}")
USERNAME_RULE = ("a username is 3 to 24 characters: letters a to z, digits, '.', '_' or '-', "
                 "starting with a letter or a digit")
MIN_PASSWORD = 8
MAX_PASSWORD = 128
PASSWORD_RULE = f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters"
NO_MATCH = "that username and password do not match an account"
"""The one answer to a wrong password and to an unknown username alike."""
REMEMBERED = 10_000
"""Identities whose account (or lack of one) is kept in memory."""


class TooManyAttempts(TableError):
    """A refusal over a rate limit (429): ``retry_after`` seconds until the next attempt may be made."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message, 429)
        self.retry_after = retry_after


@dataclass(frozen=True)
class Credentials:
    """A username and password as a request gives them, their shapes checked."""

    username: str
    password: str

    @classmethod
    def read(cls, request: Any) -> Credentials:
        """The credentials of a request body ``{"username": …, "password": …}``; a bad shape is a 400
        that says the rule."""
        if not isinstance(request, dict):
            raise TableError('give your username and password, as {"username": "…", "password": "…"}')
        username, password = request.get("username"), request.get("password")
        if not isinstance(username, str) or not USERNAME.fullmatch(username):
            raise TableError(USERNAME_RULE)
        if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
            raise TableError(PASSWORD_RULE)
        return cls(username, password)


@dataclass(frozen=True)
class SignedIn:
    """Who a browser is after signing in: the account's identity and its username as registered."""

    player: str
    username: str


class Accounts:
    """The accounts of the database ``store``, with the limits of ``limits``."""

    def __init__(self, store: TableStore, limits: Limits, hasher: PasswordHasher | None = None) -> None:
        self.store = store
        self.hasher = hasher or PasswordHasher()
        self._decoy = self.hasher.hash(secrets.token_urlsafe(16))
        """Checked against when a username has no account, so that it takes as long as a wrong password."""
        self.signins = KeyedBuckets.per_hour(limits.signins_per_hour)
        self.address_signins = KeyedBuckets.per_hour(limits.address_signins_per_hour)
        self.registrations = KeyedBuckets.per_hour(limits.registrations_per_hour, burst_share=0.5)
        self._usernames: OrderedDict[str, str | None] = OrderedDict()

    def budgets(self) -> list[tuple[str, KeyedBuckets]]:
        """Its budgets, by name (to count them in the database with several server processes)."""
        return [("signins", self.signins), ("address_signins", self.address_signins),
                ("registrations", self.registrations)]

    def _remember(self, player: str, username: str | None) -> None:
        self._usernames[player] = username
        self._usernames.move_to_end(player)
        while len(self._usernames) > REMEMBERED:
            self._usernames.popitem(last=False)

    async def account_of(self, player: str | None) -> str | None:
        """The username of the account that keeps the identity ``player`` (None: a guest)."""
        if player is None:
            return None
        if player in self._usernames:
            return self._usernames[player]
        username = await asyncio.to_thread(self.store.account_of, player)
        self._remember(player, username)
        return username

    async def register(self, player: str, request: Any, address: str) -> str:
        """Make the guest ``player`` an account with the username and password of ``request``: its
        username as registered."""
        credentials = Credentials.read(request)
        already = await self.account_of(player)
        if already is not None:
            raise TableError(f"you are signed in as {already} already: sign out to register another account", 409)
        if wait := await self.registrations.spend(address):
            raise TooManyAttempts(f"too many accounts registered from your address: try again {retry_text(wait)}",
                                  wait)
        password_hash = await asyncio.to_thread(self.hasher.hash, credentials.password)
        if not await asyncio.to_thread(self.store.add_account, credentials.username, password_hash, player):
            raise TableError(f"the username {credentials.username} is taken: choose another", 409)
        self._remember(player, credentials.username)
        return credentials.username

    async def sign_in(self, request: Any, address: str) -> SignedIn:
        """The account whose username and password ``request`` gives (401 if none matches)."""
        credentials = Credentials.read(request)
        if wait := await self.address_signins.spend(address):
            raise TooManyAttempts(f"too many sign-in attempts from your address: try again {retry_text(wait)}", wait)
        key = credentials.username.lower()
        if wait := await self.signins.spend(key):
            raise TooManyAttempts(f"too many sign-in attempts for this username: try again {retry_text(wait)}",
                                  wait)
        account = await asyncio.to_thread(self.store.account_named, credentials.username)
        stored = account.password_hash if account is not None else self._decoy
        if not await asyncio.to_thread(self._verify, stored, credentials.password) or account is None:
            raise TableError(NO_MATCH, 401)
        if self.hasher.check_needs_rehash(stored):
            rehashed = await asyncio.to_thread(self.hasher.hash, credentials.password)
            await asyncio.to_thread(self.store.set_password_hash, account.username, rehashed)
        self._remember(account.player, account.username)
        return SignedIn(account.player, account.username)

    def _verify(self, stored: str, password: str) -> bool:
        try:
            return self.hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False
