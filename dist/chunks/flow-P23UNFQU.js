import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{c as a,d as b,e as c,f as d}from"./chunk-Y7YZGWDB.js";import"./chunk-6BRGDVIX.js";import"./chunk-XWWQDZ2R.js";import"./chunk-EEEC4TXW.js";export{d as bestEffortWithin,a as execute,b as fail,c as writeReports};
