-- evalflow's own store (runs, transcript events, scores), next to Temporal's databases.
CREATE ROLE evalflow LOGIN PASSWORD 'evalflow';
CREATE DATABASE evalflow OWNER evalflow;
