/** Tool declarations shared by the per-format suites: get_weather, search, write_file (one JSON home). */
import { suiteTools } from "../helpers/fixtures.js";

export const TOOLS = suiteTools();
