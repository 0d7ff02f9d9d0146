import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
function r(n){return typeof n=="object"&&n!==null&&!Array.isArray(n)}export{r as a};
