"""The depot's profile: its name, address, VAT number and logo, as the paper prints them.

The depot's name is the one its identity got at the first start (WAREHOUSE_DEPOT_NAME, or the
machine's name: safekeeping/depot.py), kept in service_settings; the profile adds the rest
beside it. A renamed depot's backups carry the new name, as a restore names them. Every change
is one row of the audit trail (`depot.update`).

The logo is kept as its own bytes (base64 in the setting, with its media type): a PNG or a
JPEG of at most LOGO_MAX_BYTES, as Pillow reads it, so a file that only claims to be an image
never reaches a printed page.
"""
import base64
import binascii
import io

from sqlalchemy import select

from models import ServiceSetting
from stock import audit
from stock.errors import Invalid, say
from storage.db import writing

ID, NAME, ADDRESS, VAT_NUMBER, LOGO = "depot_id", "depot_name", "depot_address", "depot_vat_number", "depot_logo"
LANGUAGE = "depot_language"
LANGUAGES = ("en", "sl", "de")  # as language/ serves them (DESIGN 29)
FIELDS = {"name": NAME, "address": ADDRESS, "vat_number": VAT_NUMBER}
LIMITS = {"name": 100, "address": 500, "vat_number": 50}
LOGO_MAX_BYTES = 256 * 1024
LOGO_TYPES = {"PNG": "image/png", "JPEG": "image/jpeg"}


def profile(session) -> dict:
    """{name, address, vat_number, logo}: the texts ("" where none) and whether a logo is kept."""
    kept = _settings(session)
    return {**{field: kept.get(setting, "") for field, setting in FIELDS.items()}, "logo": LOGO in kept}


def language(session) -> str | None:
    """The language the depot page chose for the depot (pages, paper, scanner); None: not chosen."""
    return session.scalar(select(ServiceSetting.value).where(ServiceSetting.name == LANGUAGE)) or None


def set_language(session, actor: audit.Actor, chosen: str | None) -> None:
    """Choose the depot's language (one of LANGUAGES), or none (""/None: WAREHOUSE_LANGUAGE, else
    each browser's)."""
    chosen = _checked_language(chosen)
    with writing(session):
        _put_language(session, actor, chosen)


def _checked_language(chosen: str | None) -> str:
    chosen = (chosen or "").strip().lower()
    if chosen and chosen not in LANGUAGES:
        message = say("The language %(language)r is not one of %(languages)s.", language=chosen,
                      languages=", ".join(LANGUAGES))
        raise Invalid(message, {"language": [message]})
    return chosen


def _put_language(session, actor: audit.Actor, chosen: str) -> None:
    before = language(session)
    if (before or "") == chosen:
        return
    if chosen:
        _put(session, LANGUAGE, chosen)
    else:
        session.delete(session.get(ServiceSetting, LANGUAGE))
    audit.record(session, actor, "depot.language", "", {"language": [before, chosen or None]})


def logo(session) -> tuple[str, bytes] | None:
    """(media type, bytes) of the depot's logo; None when it has none."""
    value = session.scalar(select(ServiceSetting.value).where(ServiceSetting.name == LOGO))
    if not value:
        return None
    media, _, data = value.partition(";base64,")
    try:
        return media, base64.b64decode(data, validate=True)
    except binascii.Error:  # written by hand into the database: no logo rather than a broken one
        return None


def update_profile(session, actor: audit.Actor, fields: dict, new_logo: bytes | None = None,
                   remove_logo: bool = False, chosen_language: str | None = None) -> None:
    """Replace the texts given (name, address, vat_number); a new logo, or none when `remove_logo`;
    the depot's language when `chosen_language` is given ("" for none).

    Invalid names each field at fault, and nothing is changed."""
    texts = {field: _checked(field, value) for field, value in fields.items()}
    chosen_language = None if chosen_language is None else _checked_language(chosen_language)
    stored_logo = None if new_logo is None else _logo_value(new_logo)
    with writing(session):
        kept = _settings(session)
        before = {field: kept.get(FIELDS[field], "") for field in texts}
        changes = audit.changed_fields(before, texts)
        for field in changes:
            _put(session, FIELDS[field], texts[field])
        if stored_logo is not None:
            _put(session, LOGO, stored_logo)
            changes["logo"] = [_logo_note(kept.get(LOGO)), _logo_note(stored_logo)]
        elif remove_logo and LOGO in kept:
            session.delete(session.get(ServiceSetting, LOGO))
            changes["logo"] = [_logo_note(kept[LOGO]), None]
        if changes:
            audit.record(session, actor, "depot.update", texts.get("name") or kept.get(NAME, ""), changes)
        if chosen_language is not None:
            _put_language(session, actor, chosen_language)


def _checked(field: str, value) -> str:
    if field not in FIELDS:
        raise Invalid(say("The depot has no field %(field)r.", field=field), {field: [say("Unknown field.")]})
    value = (value or "").strip() if isinstance(value, str) or value is None else value
    if not isinstance(value, str):
        raise Invalid(say("The depot's %(field)s must be text.", field=field), {field: [say("Must be text.")]})
    if field == "name" and not value:
        raise Invalid(say("The depot needs a name."), {"name": [say("Give the name printed on the paper.")]})
    if len(value) > LIMITS[field]:
        raise Invalid(say("The depot's %(field)s has at most %(count)s characters.", field=field, count=LIMITS[field]),
                      {field: [say("At most %(count)s characters.", count=LIMITS[field])]})
    # An address may run over lines; nothing else may hold control characters.
    lines = value.replace("\r\n", "\n").split("\n") if field == "address" else [value]
    if not all(line.isprintable() for line in lines):
        raise Invalid(say("The depot's %(field)s holds characters that do not print.", field=field),
                      {field: [say("Letters, digits, spaces and punctuation only.")]})
    return "\n".join(line.rstrip() for line in lines)


def _logo_value(data: bytes) -> str:
    """The logo as kept ("image/png;base64,..."), or Invalid naming `logo` with what to do."""
    if not data:
        raise Invalid(say("The logo file is empty."), {"logo": [say("Choose a PNG or JPEG file.")]})
    if len(data) > LOGO_MAX_BYTES:
        raise Invalid(say("The logo is %(size)s KB; at most %(most)s KB.", size=len(data) // 1024,
                          most=LOGO_MAX_BYTES // 1024),
                      {"logo": [say("At most %(most)s KB: save it smaller (a logo prints about 4 cm wide; "
                                    "600 pixels are plenty).", most=LOGO_MAX_BYTES // 1024)]})
    from PIL import Image, UnidentifiedImageError  # only when a logo is uploaded, which is rare
    try:
        with Image.open(io.BytesIO(data)) as image:
            kind = image.format
            image.verify()
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        kind = None
    if kind not in LOGO_TYPES:
        raise Invalid(say("The logo is not a PNG or JPEG image."), {"logo": [say("Choose a PNG or JPEG file.")]})
    return f"{LOGO_TYPES[kind]};base64,{base64.b64encode(data).decode('ascii')}"


def _logo_note(value: str | None) -> str | None:
    """What the audit trail says of a logo: its type and size, never its bytes."""
    if not value:
        return None
    media, _, data = value.partition(";base64,")
    return f"{media}, {len(data) * 3 // 4 // 1024 or 1} KB"


def _settings(session) -> dict:
    names = [*FIELDS.values(), LOGO]
    return dict(session.execute(select(ServiceSetting.name, ServiceSetting.value)
                                .where(ServiceSetting.name.in_(names))).all())


def _put(session, name: str, value: str) -> None:
    setting = session.get(ServiceSetting, name)
    if setting is None:
        session.add(ServiceSetting(name=name, value=value))
    else:
        setting.value = value
