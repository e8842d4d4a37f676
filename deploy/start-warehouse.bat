@echo off
rem Starts the warehouse service from the folder this file is in; for a Task Scheduler task
rem "At startup" (docs/operations.md, "Starting at boot, and stopping"). Settings go in the lines below.
cd /d "%~dp0.."
set WAREHOUSE_LOG_FILE=%CD%\warehouse.log
.venv\Scripts\python.exe app.py
