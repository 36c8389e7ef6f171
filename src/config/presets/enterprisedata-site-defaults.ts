/**
 * What EnterpriseData does not carry and the platform needs, as the shipped mapping
 * `config/mappings/enterprisedata-orders.yaml` gives it: values that let the first exchange go
 * through unedited, each a placeholder (SITE) a site replaces with its purchasing department's own.
 * The suggestion writes the same fields, values and reasons (a test keeps the two equal): the shipped
 * file may not be where the program runs from (a package installs it under /etc).
 */

export interface SiteDefault {
  /** The request field, as the mapping's `request:` section names it. */
  name: string;
  spec: { default: string } | { const: string };
  /** The YAML comment above it (without `# `), the first line starting `SITE.`; none when it shares the one above. */
  comment: string[];
}

export const ENTERPRISEDATA_SITE_DEFAULTS: readonly SiteDefault[] = [
  {
    name: 'contact.name',
    spec: { default: 'Отдел закупок' },
    comment: [
      'SITE. The contact is the user responsible for the order in 1C (Ответственный); an order with',
      'none gets this name. EnterpriseData carries no phone or e-mail: every request gets this phone.',
    ],
  },
  { name: 'contact.phone', spec: { const: '+7 000 000-00-00' }, comment: [] },
  {
    name: 'delivery.city',
    spec: { default: 'Москва' },
    comment: [
      "SITE. The city is read out of the order's delivery address (АдресДоставки); an order with no",
      'address, or one that names no city, is delivered to this one.',
    ],
  },
  {
    name: 'delivery.address',
    spec: { default: 'Адрес склада не указан в заказе' },
    comment: ['SITE. 1C fills the delivery address only for some ways of delivery; the others go to this one.'],
  },
];
