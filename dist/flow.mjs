import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{c as a,d as b,e as c,f as d}from"./chunks/chunk-QVPHZ74Y.mjs";import"./chunks/chunk-GWUKRRDS.mjs";import"./chunks/chunk-KYNHCJGC.mjs";import"./chunks/chunk-ZC56W3P3.mjs";export{d as bestEffortWithin,a as execute,b as fail,c as writeReports};
