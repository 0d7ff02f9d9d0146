import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{f as a,g as b,h as c,i as d}from"./chunks/chunk-EAI4OMHT.mjs";import"./chunks/chunk-6RTEJG6E.mjs";import"./chunks/chunk-HHG6NVZF.mjs";import"./chunks/chunk-ZC56W3P3.mjs";export{d as bestEffortWithin,a as execute,b as fail,c as writeReports};
