import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
var t=new Set(["localhost","127.0.0.1","[::1]"]);function e(o){return o.protocol==="https:"?!0:o.protocol==="http:"&&t.has(o.hostname.toLowerCase())}export{e as a};
