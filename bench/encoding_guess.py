"""How often the import reads a Windows CSV's letters right: our guess against charset-normalizer.

    .venv/bin/python bench/encoding_guess.py

Short product lists (1 to 15 names, as an office saves a first try) in six languages written
with Windows-1250 and seven with Windows-1252, each saved in its code page. A file counts as
read right when its text comes out exactly as written; files both code pages read alike (only
ASCII, `ä`, `é`, `š`...) are left out, since any guess reads them right. charset-normalizer is
asked to choose between the same two code pages (`cp_isolation`). Then the time each takes
for a 10,000-row file of the same names. The names were written for this measurement.
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from transfer import encodings  # noqa: E402

CENTRAL = {
    "sl": ["Čokolada mlečna 100 g", "Kava mleta 250 g", "Jabolčni sok 1 l", "Čaj kamilični", "Sladkor kristal 1 kg",
           "Pšenična moka tip 500", "Kisla smetana 20 %", "Žitarice z medom", "Češnje v kozarcu",
           "Piškoti s čokolado", "Mineralna voda gazirana", "Olje sončnično 1 l", "Riž dolgozrnati",
           "Testenine špageti", "Sol morska drobna"],
    "cs": ["Čokoláda hořká 70 %", "Káva zrnková 1 kg", "Řepkový olej 1 l", "Mléko trvanlivé 1,5 %",
           "Těstoviny vřetena", "Chléb žitný krájený", "Hořčice plnotučná", "Máslo 82 % tuku", "Pivo světlé výčepní",
           "Jablečný mošt", "Rýže dlouhozrnná", "Sýr eidam plátky", "Šunka vepřová výběrová", "Mouka hladká světlá",
           "Cukr krupice"],
    "pl": ["Czekolada gorzka 90 g", "Kawa mielona 500 g", "Masło ekstra 200 g", "Chleb żytni razowy", "Śmietana 18 %",
           "Mąka pszenna typ 450", "Olej rzepakowy 1 l", "Jabłka łąckie", "Sok pomarańczowy", "Ręczniki papierowe",
           "Ser żółty gouda", "Kiełbasa śląska", "Ogórki kiszone", "Woda źródlana 1,5 l", "Herbata czarna ekspresowa"],
    "sk": ["Čokoláda mliečna", "Maslo čerstvé 250 g", "Ľadový čaj citrón", "Chlieb ražný", "Káva mletá 250 g",
           "Mlieko polotučné 1 l", "Šťava jablková", "Múka hladká špeciál", "Cukor kryštálový", "Syr údený oštiepok"],
    "hr": ["Čokolada s lješnjacima", "Kava mljevena", "Sok od naranče", "Mlijeko trajno 2,8 %", "Šećer bijeli 1 kg",
           "Ulje suncokretovo", "Tjestenina špageti", "Đumbir svježi", "Kruh crni", "Čaj od šipka"],
    "hu": ["Csokoládé étcsokoládé", "Őrölt kávé 250 g", "Tej félzsíros 1 l", "Kenyér fehér szeletelt",
           "Túró zsírszegény", "Napraforgó étolaj", "Cukor kristály 1 kg", "Sütőpor 12 g", "Gyümölcslé narancs",
           "Sajt trappista"],
}
WESTERN = {
    "de": ["Schokolade Vollmilch 100 g", "Kaffee gemahlen 500 g", "Äpfel Elstar lose", "Müsli Früchte",
           "Süßstoff Tabletten", "Weißbrot geschnitten", "Käse Gouda Scheiben", "Öl Sonnenblume 1 l",
           "Brötchen Weizen", "Zucker fein 1 kg", "Grüner Tee", "Sahne 30 %", "Mehl Type 405", "Saft Orange",
           "Würstchen Wiener"],
    "fr": ["Chocolat noir 70 %", "Café moulu 250 g", "Crème fraîche épaisse", "Pâtes coquillettes",
           "Thé vert à la menthe", "Bière blonde 33 cl", "Pain de mie complet", "Fromage râpé emmental",
           "Crêpes sucrées", "Huile d'olive vierge", "Lait demi-écrémé", "Pommes golden", "Sucre en poudre",
           "Eau gazeuse", "Pâté de campagne"],
    "es": ["Chocolate con leche", "Café molido natural", "Jamón serrano lonchas", "Aceite de oliva virgen",
           "Azúcar blanco", "Leche semidesnatada", "Piñones tostados", "Turrón de Jijona", "Galletas María",
           "Atún en aceite", "Pan de molde", "Mermelada de fresa", "Queso manchego curado", "Arroz bomba",
           "Champiñón laminado"],
    "it": ["Cioccolato fondente", "Caffè macinato", "Pasta di semola", "Olio extravergine d'oliva", "Tè nero",
           "Biscotti al burro", "Passata di pomodoro", "Formaggio grattugiato", "Acqua frizzante", "Crème caramel",
           "Panettone classico", "Liquore alla pesca", "Farina tipo 00", "Città gelato limone", "Più vino rosso"],
    "pt": ["Chocolate ao leite", "Café torrado moído", "Pão de forma", "Azeite virgem extra", "Açúcar refinado",
           "Feijão preto", "Linguiça calabresa", "Maçã gala", "Limão taiti", "Requeijão cremoso"],
    "sv": ["Choklad mjölk", "Kaffe bryggmalet", "Smör normalsaltat", "Knäckebröd råg", "Ärtsoppa på burk",
           "Filmjölk 3 %", "Gröt havre", "Äppelmust", "Ost hushåll", "Lingonsylt"],
    "da": ["Chokolade mørk", "Kaffe formalet", "Smør usaltet", "Rugbrød skåret", "Æblejuice", "Ærter frosne",
           "Rødkål på glas", "Mælk let 1 l", "Ost skiver", "Hvedemel"],
}


def csv_file(names) -> str:
    return "product_code;name;base_unit\r\n" + "".join(f"P{n};{name};pc\r\n" for n, name in enumerate(names))


def files():
    """(codec, language, text, bytes) of every short list that the two code pages read differently."""
    for codec, languages in (("cp1250", CENTRAL), ("cp1252", WESTERN)):
        for language, names in languages.items():
            for size in (1, 2, 3, 5, 10, len(names)):
                for start in range(0, len(names) - size + 1, size):
                    text = csv_file(names[start:start + size])
                    data = text.encode(codec)
                    if data.decode("cp1250", "replace") != data.decode("cp1252", "replace"):
                        yield codec, language, text, data


def ours(data: bytes) -> str:
    return encodings.CODECS[encodings.detect(data)]


def charset_normalizer(data: bytes) -> str:
    from charset_normalizer import from_bytes
    best = from_bytes(data, cp_isolation=["cp1250", "cp1252"]).best()
    return best.encoding if best is not None else "cp1252"


def main() -> None:
    cases = list(files())
    big = {codec: csv_file([name for names in languages.values() for name in names] * 100).encode(codec)
           for codec, languages in (("cp1250", CENTRAL), ("cp1252", WESTERN))}
    print(f"{len(cases)} short files; right per language, then the time for a 10,000-row file")
    for name, guess in (("ours", ours), ("charset-normalizer", charset_normalizer)):
        right, by_language = 0, {}
        for codec, language, text, data in cases:
            try:
                read = data.decode(guess(data)) == text
            except UnicodeDecodeError:
                read = False
            right += read
            done, seen = by_language.get(language, (0, 0))
            by_language[language] = (done + read, seen + 1)
        timings = []
        for codec, data in big.items():
            start = time.perf_counter()
            chosen = guess(data)
            timings.append(f"{codec} file ({len(data) // 1024} KiB) read as {chosen} in "
                           f"{(time.perf_counter() - start) * 1000:.0f} ms")
        print(f"{name}: {right}/{len(cases)} right "
              + " ".join(f"{language} {done}/{seen}" for language, (done, seen) in by_language.items()))
        print("   " + "; ".join(timings))


if __name__ == "__main__":
    main()
