// A job's location as the dispatch services read it: the state as the contract spells it, and a ZIP the ZIP
// dataset places in another state refused, so a job is never quoted, matched or booked in a state it is not in.
import { DomainError } from "../errors.js";
import { zipPlace } from "./geo/zip.js";
import { usStateOf, type UsState } from "./trades.js";

interface Located {
  state: UsState;
  zip?: string;
}

/** `location` with its state upper-cased; 422 naming `/location/state` and `/location/zip` when they disagree. */
export async function jobLocation<L extends Located>(location: L): Promise<L> {
  const state = usStateOf(location.state);
  const place = location.zip ? await zipPlace(location.zip) : null;
  if (place && place.state !== state) {
    const detail = `ZIP ${location.zip} is in ${place.state}, not in the state ${state}.`;
    throw new DomainError("validation", "validation_failed", detail, {
      errors: [
        { pointer: "/location/state", message: `"state" ${state} does not hold ZIP ${location.zip} (${place.state})` },
        { pointer: "/location/zip", message: `"zip" ${location.zip} is in ${place.state}, not in ${state}` },
      ],
    });
  }
  return { ...location, state };
}
