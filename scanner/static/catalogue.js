// The catalogue kept on the device: a scan resolves here, with no request per scan (DESIGN 24).
// A barcode names a product in its base unit (factor 1) or in one of its packaging units (its
// factor); a code typed by hand may also be the product's own code.

import { toMilli } from "./amounts.js";

const KEPT = ["product_code", "name", "base_unit", "base_unit_barcode", "lot_level", "decimal_places", "active",
              "packaging"];

/** A product of GET /v1/products/ with only what the scanner uses, so the device keeps less. */
export function kept(product) {
  const slim = Object.fromEntries(KEPT.map((name) => [name, product[name]]));
  slim.packaging = (product.packaging || []).map(({ unit, amount_base_units, barcode }) =>
    ({ unit, factor_milli: toMilli(amount_base_units), barcode }));
  return slim;
}

export class Catalogue {
  constructor(products = []) {
    this.products = new Map();
    this.barcodes = new Map();
    for (const product of products) {
      this.products.set(product.product_code, product);
      if (product.base_unit_barcode) {
        this.barcodes.set(product.base_unit_barcode, { product, unit: product.base_unit, factor_milli: 1000 });
      }
      for (const packaging of product.packaging) {
        if (packaging.barcode) this.barcodes.set(packaging.barcode, { product, ...packaging });
      }
    }
  }

  get size() { return this.products.size; }

  product(code) { return this.products.get(code) || null; }

  /** {product, unit, factor_milli, barcode} for a code read or typed, or null when nothing has it. */
  resolve(text) {
    const code = String(text).trim();
    // A UPC-A is an EAN-13 with a leading 0; readers give either form.
    const forms = [code];
    if (/^\d{12}$/.test(code)) forms.push("0" + code);
    if (/^0\d{12}$/.test(code)) forms.push(code.slice(1));
    for (const form of forms) {
      const found = this.barcodes.get(form);
      if (found) return { product: found.product, unit: found.unit, factor_milli: found.factor_milli, barcode: form };
    }
    const product = this.products.get(code);
    return product ? { product, unit: product.base_unit, factor_milli: 1000, barcode: "" } : null;
  }
}
