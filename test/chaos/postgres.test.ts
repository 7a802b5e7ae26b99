import { chaosSuite } from "./chaos.test-helpers";

chaosSuite(true);
