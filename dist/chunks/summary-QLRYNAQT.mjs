import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a as i,b as s,c as m,d as a,e as c,f as u,g as l,h as p}from"./chunk-YFMKATIG.mjs";import"./chunk-ZZXQXZPH.mjs";import"./chunk-HEDYUAHL.mjs";import{a as o}from"./chunk-HHG6NVZF.mjs";import"./chunk-ZC56W3P3.mjs";import{appendFile as d}from"node:fs/promises";import{EOL as g}from"node:os";var y=6e4;function f(e){let r=m(e),n=c(e),t=l(e);return p(`### ${i(e)}`,s(e),r?`#### Status timeline

${r}`:"",a(e),n?`#### Error

${n}`:"",u(e,y),t?`#### Warnings

${t}`:"")}async function E(e,r=process.env,n){let t=r.GITHUB_STEP_SUMMARY;if(!t){n?.debug("GITHUB_STEP_SUMMARY is not set: no step summary written.");return}try{await d(t,o(f(e))+g,"utf8")}catch(S){n?.warning(`Could not write the step summary to ${t}: ${S.message}. The deploy result is unchanged.`,{title:"Step summary not written"})}}export{f as renderSummary,E as writeSummary};
