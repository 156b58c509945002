// Part 2 of 3 of the malformed-body checks of every POST and PATCH route (see malformed-bodies.ts).
import { defineMalformedBodyTests } from "./malformed-bodies.js";

defineMalformedBodyTests(2, 3);
