/** Toasts and warnings stay 5000 ms (every antd message, see main.tsx). */
export const TOAST_SECONDS = 5;
