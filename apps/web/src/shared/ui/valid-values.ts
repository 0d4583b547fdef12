import type { FormInstance } from 'antd';
import type { NamePath } from 'antd/es/form/interface';

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
  return validate(form, undefined, retries);
}

/**
 * Like validValues, for the `names` fields only: a step that uses some of the form (按规则分配 reads
 * the date and the amount, not the allocation it replaces).
 */
export async function validFields<V>(
  form: FormInstance<V>,
  names: NamePath[],
): Promise<Partial<V> | undefined> {
  return validate(form, names, 3);
}

async function validate<V>(
  form: FormInstance<V>,
  names: NamePath[] | undefined,
  retries: number,
): Promise<V | undefined> {
  try {
    return await (names ? form.validateFields(names) : form.validateFields());
  } catch (err) {
    // A field that commits its value as focus leaves it (a picker, a number input) can change the
    // form while this validation runs: antd then rejects it as out of date, with no field in error,
    // and the click that asked for it did nothing. Validate again what the form now holds.
    if (isOutOfDate(err) && retries > 0) return validate(form, names, retries - 1);
    if (isValidationFailure(err)) return undefined;
    throw err;
  }
}
