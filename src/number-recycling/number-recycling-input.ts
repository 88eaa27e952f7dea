import { BODY_MESSAGE, fullDate, parseCamaraBody, phoneNumber, sent } from '../camara/camara-input';
import { refuseUnknownFields } from '../camara/strict-body';
import { ownObject } from '../kernel/body-schema';

export interface RecyclingCheckBody { phoneNumber?: string; specifiedDate: string }

/** CreateCheckNumRecycling: specifiedDate (required, a full-date naming a real day) checked before the optional phoneNumber. */
const checkSchema = ownObject({ specifiedDate: fullDate('specifiedDate'), phoneNumber }, BODY_MESSAGE);

/** An unknown field is refused (400), as every signal API's body. */
export function parseRecyclingCheckBody(body: unknown): RecyclingCheckBody {
  refuseUnknownFields(body, ['phoneNumber', 'specifiedDate']);
  return sent(parseCamaraBody(checkSchema, body));
}
