import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
var e="LANGGRAPH_DEPLOY_ACTION_DIGEST";export{e as a};
