/**
 * The format language, as the families use it. The vocabulary belongs to the engine
 * (src/parse/language.ts); this file only re-exports it, and adds `RegisteredFormat`: a description
 * whose `id` is one of the registry's (`FormatId`, inferred from families.generated.ts).
 */
import type { FormatDescription } from "../parse/language.js";
import type { FormatId } from "./index.js";

export type {
  CallSection,
  ChannelRoute,
  ChannelRule,
  ChannelSpec,
  Detection,
  FormatDescription,
  IdStyle,
  ImplicitEnd,
  KeyValueParams,
  NamedParams,
  Payload,
  ReasoningMarkers,
  RegionSpec,
  UntypedValues,
} from "../parse/language.js";
export type { FormatId } from "./index.js";

/** A registered family's description (its `id` is one of the registry's). */
export type RegisteredFormat = Omit<FormatDescription, "id"> & { id: FormatId };
