const [script = 'this script', what = 'this part'] = process.argv.slice(2);
console.log(`npm run ${script}: not yet available; ${what} is not built yet.`);
