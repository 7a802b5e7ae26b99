import { chaosSuite } from "./chaos.test-helpers";

chaosSuite(false);
