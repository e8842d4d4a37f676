"""Identity: who a request comes from and acts for, and what it may manage (DESIGN 2, 16, 26).

One room for keys, people and their sessions, so that each is found in one obvious place:

  client.py    the request's client: its address (behind the trusted proxy too), whether it
               came over HTTPS, the name the access line logs it under
  api_keys.py  API keys: issued, checked, revoked, last use
  people.py    people who sign in to the pages: passwords, the sign-in throttle, disabling
  sessions.py  the pages' sessions, kept on the server
  notes.py     last-use notes written without waiting for the write lock

The Caller every rule is given (a key or a person: role, warehouses) and `may_manage` live
below the rules, in stock/caller.py: the arrows between this room and stock/ run one way, from
here down. Two floors (tests/house/test_layout.py FLOORS): client.py imports nothing of the project,
so that every layer may import it; api_keys, people, sessions and notes are rules on a session,
between schemas/ and stock/: they may import stock/ (the caller, audit, warehouses, errors),
models and storage/, never schemas/, routes/, pages/ or flask.
"""
