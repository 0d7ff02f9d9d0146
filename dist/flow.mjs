import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a,b,c,d}from"./chunks/chunk-UKIK5QW4.mjs";import"./chunks/chunk-R4XF3OCL.mjs";import"./chunks/chunk-K7O66HDJ.mjs";import"./chunks/chunk-4XWX42VP.mjs";import"./chunks/chunk-HHG6NVZF.mjs";import"./chunks/chunk-ZC56W3P3.mjs";export{d as bestEffortWithin,a as execute,b as fail,c as writeReports};
