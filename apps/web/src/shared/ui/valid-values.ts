import type { FormInstance } from 'antd';

/** antd's rejection of `validateFields`: the fields in error, each already showing its message. */
function isValidationFailure(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'errorFields' in err;
}

function isOutOfDate(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'outOfDate' in err && err.outOfDate === true;
}

/**
 * The form's values when every field is valid, else undefined (the fields show what is wrong).
 * Wrong input is the user's to fix, not a fault: left unguarded, `validateFields`'s rejection
 * reached the error log as an unhandled rejection. Any other error is rethrown.
 */
export async function validValues<V>(form: FormInstance<V>, retries = 3): Promise<V | undefined> {
  try {
    return await form.validateFields();
  } catch (err) {
    // A field that commits its value as focus leaves it (a picker, a number input) can change the
    // form while this validation runs: antd then rejects it as out of date, with no field in error,
    // and the click that asked for it did nothing. Validate again what the form now holds.
    if (isOutOfDate(err) && retries > 0) return validValues(form, retries - 1);
    if (isValidationFailure(err)) return undefined;
    throw err;
  }
}
