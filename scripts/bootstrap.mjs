// `npm run bootstrap`: install dependencies and generate the Prisma client, nothing else.
import { bootstrap, log } from "./lib.mjs";

bootstrap();
log("workspace ready");
