// Amounts as whole thousandths, as the service keeps them: 0.1 + 0.2 is exactly 0.3 here too.

const AMOUNT = /^(\d{1,12})(?:[.,](\d{0,3}))?$/;

/** "1.5" -> 1500; null for what is not an amount of at most three decimal places. */
export function toMilli(text) {
  const found = AMOUNT.exec(String(text ?? "").trim());
  if (!found) return null;
  return Number(found[1]) * 1000 + Number((found[2] || "").padEnd(3, "0"));
}

/** 1500 -> "1.5": the decimal text the API takes and people read. */
export function fromMilli(milli) {
  const sign = milli < 0 ? "-" : "";
  const whole = Math.floor(Math.abs(milli) / 1000);
  const part = Math.abs(milli) % 1000;
  return sign + whole + (part ? "." + String(part).padStart(3, "0").replace(/0+$/, "") : "");
}

/** An amount in a unit times the unit's factor, in base thousandths; null when it needs more than
 * three decimal places (the service would refuse it). BigInt: the product passes 2**53. */
export function inBase(amountMilli, factorMilli) {
  const product = BigInt(amountMilli) * BigInt(factorMilli);
  if (product % 1000n !== 0n) return null;
  return Number(product / 1000n);
}

/** How many decimal places a thousandths amount needs (0 to 3). */
export function placesOf(milli) {
  if (milli % 1000 === 0) return 0;
  if (milli % 100 === 0) return 1;
  if (milli % 10 === 0) return 2;
  return 3;
}
