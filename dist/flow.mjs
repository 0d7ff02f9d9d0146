import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{c as a,d as b,e as c,f as d}from"./chunks/chunk-DFSJ3WFX.mjs";import"./chunks/chunk-ESRQ67CK.mjs";import"./chunks/chunk-K7O66HDJ.mjs";import"./chunks/chunk-HHG6NVZF.mjs";import"./chunks/chunk-ZC56W3P3.mjs";export{d as bestEffortWithin,a as execute,b as fail,c as writeReports};
