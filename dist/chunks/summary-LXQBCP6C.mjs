import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a as i,b as s,c as m,d as a,e as c,f as u,g as l,h as p,i as S}from"./chunk-DD2I57WP.mjs";import"./chunk-HEDYUAHL.mjs";import"./chunk-EXUFQD6R.mjs";import{a as o}from"./chunk-65JF52HA.mjs";import"./chunk-ZC56W3P3.mjs";import{appendFile as f}from"node:fs/promises";import{EOL as g}from"node:os";var y=6e4;function R(t){let r=m(t),n=c(t),e=l(t);return p(`### ${i(t)}`,s(t),r?`#### Status timeline

${r}`:"",a(t),S(t),n?`#### Error

${n}`:"",u(t,y),e?`#### Warnings

${e}`:"")}async function $(t,r=process.env,n){let e=r.GITHUB_STEP_SUMMARY;if(!e){n?.debug("GITHUB_STEP_SUMMARY is not set: no step summary written.");return}try{await f(e,o(R(t))+g,"utf8")}catch(d){n?.warning(`Could not write the step summary to ${e}: ${d.message}. The deploy result is unchanged.`,{title:"Step summary not written"})}}export{R as renderSummary,$ as writeSummary};
