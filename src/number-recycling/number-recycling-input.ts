import { BODY_MESSAGE, fullDate, parseCamaraBody, phoneNumber, sent } from '../camara/camara-input';
import { onlyFields } from '../camara/strict-body';
import { ownObject } from '../kernel/body-schema';

export interface RecyclingCheckBody { phoneNumber?: string; specifiedDate: string }

/** CreateCheckNumRecycling: specifiedDate (required, a full-date naming a real day) checked before the optional phoneNumber. */
const checkSchema = ownObject({ specifiedDate: fullDate('specifiedDate'), phoneNumber }, BODY_MESSAGE);

/** An unknown field is refused (400), as every CAMARA API's body. */
const onlyRecyclingFields = onlyFields(['phoneNumber', 'specifiedDate']);

export function parseRecyclingCheckBody(body: unknown): RecyclingCheckBody {
  onlyRecyclingFields(body);
  return sent(parseCamaraBody(checkSchema, body));
}
