import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{g as a,h as b,i as c,j as d}from"./chunks/chunk-4XDW3Q5X.mjs";import"./chunks/chunk-HIUGLEMZ.mjs";import"./chunks/chunk-65JF52HA.mjs";import"./chunks/chunk-ZC56W3P3.mjs";export{d as bestEffortWithin,a as execute,b as fail,c as writeReports};
