"""Which symbology prints a barcode: EAN-13 for a valid EAN-13, Code 128 for everything else.

A scanner reads either; EAN-13 is chosen only when the text is one (13 digits whose check digit
is right), so that a printed EAN-13 never carries a number other than the one stored.
"""
EAN13 = "ean13"
CODE128 = "code128"


def ean13_check_digit(first_twelve: str) -> int:
    """The check digit of 12 digits: weights 1 and 3 alternating from the left, to the next ten."""
    total = sum(int(digit) * (3 if index % 2 else 1) for index, digit in enumerate(first_twelve))
    return (10 - total % 10) % 10


def is_ean13(barcode: str) -> bool:
    return (len(barcode) == 13 and barcode.isascii() and barcode.isdigit()
            and ean13_check_digit(barcode[:12]) == int(barcode[12]))


def symbology(barcode: str, only: str | None = None) -> str | None:
    """EAN13, CODE128, or None when there is no barcode to print (empty, or not printable ASCII:
    Code 128 carries ASCII only). `only` CODE128: never EAN-13 (a location's code is read back as
    the text it is, whatever its digits)."""
    if not barcode:
        return None
    if only != CODE128 and is_ean13(barcode):
        return EAN13
    if barcode.isascii() and barcode.isprintable():
        return CODE128
    return None
