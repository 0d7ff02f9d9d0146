import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{e as i,f as s,g as m,h as a,i as u,j as c,k as l}from"./chunk-ELQIO42E.mjs";import"./chunk-HEDYUAHL.mjs";import{a as o}from"./chunk-HHG6NVZF.mjs";import"./chunk-ZC56W3P3.mjs";import{appendFile as d}from"node:fs/promises";import{EOL as g}from"node:os";var y=6e4;function S(e){let r=m(e),n=a(e),t=c(e);return l(`### ${i(e)}`,s(e),r?`#### Status timeline

${r}`:"",n?`#### Error

${n}`:"",u(e,y),t?`#### Warnings

${t}`:"")}async function _(e,r=process.env,n){let t=r.GITHUB_STEP_SUMMARY;if(!t){n?.debug("GITHUB_STEP_SUMMARY is not set: no step summary written.");return}try{await d(t,o(S(e))+g,"utf8")}catch(p){n?.warning(`Could not write the step summary to ${t}: ${p.message}. The deploy result is unchanged.`,{title:"Step summary not written"})}}export{S as renderSummary,_ as writeSummary};
