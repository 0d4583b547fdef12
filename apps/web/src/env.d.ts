/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Voucher admin site (凭证 /ec and 银企链 /fc), e.g. https://voucher.example.com; unset = served here. */
  readonly VITE_VOUCHER_SITE?: string;
  /** The other admin site (山高E融 /dw); unset = served here. */
  readonly VITE_DW_SITE?: string;
  /** Parent domain of the token, sidebar and size cookies (e.g. .example.com); unset = current host. */
  readonly VITE_COOKIE_DOMAIN?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
