/**
 * The format language, as the families use it. The vocabulary belongs to the engine
 * (src/parse/language.ts); this file only re-exports it, with `FormatId` (inferred from the registry,
 * families.generated.ts) in place of the free `id` string.
 */
import type { FormatDescription as LanguageFormat } from "../parse/language.js";
import type { FormatId } from "./index.js";

export type {
  CallSection,
  ChannelRoute,
  ChannelRule,
  ChannelSpec,
  Detection,
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
export type FormatDescription = Omit<LanguageFormat, "id"> & { id: FormatId };
